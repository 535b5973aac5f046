import { ChainRegistry } from '@swapgw/chains';
import { bitcoinBridgeDepositMemo, opReturnScript, usdcForSats } from '@swapgw/chains/bitcoin-bridge';
import { bitcoinDevnetKey, EsploraClient, type EsploraTransaction, signPayment } from '@swapgw/devnet';
import { testEnv, waitFor } from '@swapgw/testing';
import { type CctpMintProgress, DevnetBridgeMintReader } from './cctp-mint-reader';

// The planner's reader of the devnet bridge's mints on Noble, against the running devnet: Bitcoin
// deposits towards Noble made as a wallet makes them (a payment to the vault, its OP_RETURN memo
// naming the noble1… account and the least it accepts), relayed or refunded by the bridge's Bitcoin end.
const registry = ChainRegistry.fromEnvironment({ DEVNET_MANIFEST: testEnv().devnetManifest });
const bitcoin = registry.manifest!.bitcoin!;
const noble = registry.list().find((chain) => registry.devnetCosmos(chain.id)?.bridge)!;
const esplora = new EsploraClient(bitcoin.esploraUrl);
// Test wallet 8: no other suite of the integration lane spends its coins.
const sender = bitcoinDevnetKey('wallet', 8);
const NOBLE_ACCOUNT = 'noble1qurswpc8qurswpc8qurswpc8qurswpc8msjjc0';

describe('DevnetBridgeMintReader: Bitcoin deposits towards Noble', () => {
  const reader = new DevnetBridgeMintReader(registry);
  afterAll(() => registry.destroy());

  /** A `sats` deposit to the vault towards Noble's account, accepting no less than `minAmountOut` USDC units. */
  async function depositTowardsNoble(sats: bigint, minAmountOut: bigint): Promise<string> {
    const coins = (await esplora.utxos(sender.address))
      .filter((coin) => coin.status.confirmed)
      .map((coin) => ({ txid: coin.txid, vout: coin.vout, value: BigInt(coin.value) }));
    const memo = bitcoinBridgeDepositMemo({
      destinationChain: noble.id,
      asset: 'USDC',
      recipient: NOBLE_ACCOUNT,
      minAmountOut,
    });
    const deposit = signPayment({
      key: sender,
      coins,
      outputs: [
        { address: bitcoin.bridge.vault, amount: sats },
        { script: opReturnScript(memo), amount: 0n },
      ],
      fee: 500n,
    });
    await esplora.broadcast(deposit.hex);
    return deposit.txid;
  }

  /** What the reader says of `txid` once `done` holds. */
  const readUntil = (txid: string, done: (progress: CctpMintProgress) => boolean, description: string) =>
    waitFor(
      async () => {
        const progress = await reader.mintOf(bitcoin.id, txid);
        return progress && done(progress) ? progress : null;
      },
      { timeoutMs: 60_000, intervalMs: 300, description },
    );

  it('finds Noble’s mint of a deposit the bridge relayed, and no refund', async () => {
    const sats = 1_000_000n;
    const txid = await depositTowardsNoble(sats, usdcForSats(sats, bitcoin.bridge));
    const minted = await readUntil(txid, (progress) => progress.mintTxHash !== null, 'the mint on Noble');
    expect(minted).toEqual({
      nonce: BigInt(`0x${txid}`).toString(),
      destinationChain: noble.id,
      mintTxHash: expect.stringMatching(/^[0-9A-Fa-f]{64}$/),
    });
  });

  it('finds the vault’s refund of a deposit whose minimum the bridge cannot pay, never minted', async () => {
    const sats = 600_000n;
    const txid = await depositTowardsNoble(sats, usdcForSats(sats, bitcoin.bridge) + 1n);
    const refunded = await readUntil(
      txid,
      (progress) => progress.refundTxHash !== undefined,
      'the vault’s refund',
    );
    expect(refunded).toMatchObject({ destinationChain: noble.id, mintTxHash: null });
    // The refund as a block explorer shows it: a spend of the vault paying the sender what it sent
    // less the outbound fee.
    const refund = await esplora.json<EsploraTransaction>(`/tx/${refunded.refundTxHash}`);
    expect(refund.status.confirmed).toBe(true);
    expect(refund.vin.some((input) => input.prevout?.scriptpubkey_address === bitcoin.bridge.vault)).toBe(
      true,
    );
    expect(refund.vout.find((output) => output.scriptpubkey_address === sender.address)?.value).toBe(
      Number(sats - BigInt(bitcoin.bridge.outboundFeeSats)),
    );
  });
});
