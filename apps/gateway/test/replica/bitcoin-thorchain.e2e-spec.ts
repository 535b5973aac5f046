import { secp256k1 } from '@noble/curves/secp256k1.js';
import * as btc from '@scure/btc-signer';
import { getAddress, Interface, parseUnits, Wallet } from 'ethers';
import { BITCOIN_NETWORKS, parseThorchainSwapMemo } from '@swapgw/chains/bitcoin-bridge';
import { bitcoinTestWallet, EsploraClient } from '@swapgw/devnet';
import {
  bitcoinWalletOf,
  DevnetBitcoinWallets,
  offeredPsbt,
  signPsbt as signWithWallet,
} from '../support/bitcoin-wallets';
import { startReplicaStack, ReplicaStack } from '../support/replica-stack';
import {
  buildSwapId,
  expectedOutBaseUnits,
  firstPayment,
  handleEveryStep,
  nextSigning,
  quoteFirstRoute,
  signableTransaction,
  submitSigned,
} from '../support/swap-steps';

// Native Bitcoin on the mainnet replica, the apps configured as production: the shipped catalog's
// `bitcoin` chain (ESPLORA_URL_BITCOIN at the replica's Esplora API, mainnet addresses), THORNODE_URL
// at a THORNode serving the replica, THORChain's router and vault on base and arbitrum, the service's
// Bitcoin fee wallets. BTC from a bc1q wallet (funded from the test mnemonic's m/84'/0'/0'/0/7) for
// USDC on base, and USDC on arbitrum from a wallet without ETH for BTC at a bc1p address, both
// through the THORChain adapter with THORChain's own prefixes (BASE, ARB) and the USDC contracts of
// the catalog in the memo; the miner fee and the EVM gas paid by the service.

interface Route {
  routeId: string;
  providers: string[];
  expectedAmountOut: string;
  minAmountOut: string;
  tokenOutDecimals: number;
  signatures: { chain: string; kind: string; payloadType: string }[];
  gasCoverage: { chains: { chain: string; breakdown: { kind: string }[] }[] };
}

const MAINNET = BITCOIN_NETWORKS.mainnet;
const ERC20 = new Interface(['function approve(address spender, uint256 amount) returns (bool)']);
const THORCHAIN_ROUTER = new Interface([
  'function depositWithExpiry(address vault, address asset, uint256 amount, string memo, uint256 expiration) payable',
]);

describe('native Bitcoin on the mainnet replica through THORChain: BTC → USDC on base, USDC on arbitrum → BTC', () => {
  let replica: ReplicaStack;
  let bitcoin: DevnetBitcoinWallets;
  let manifest: NonNullable<ReplicaStack['replica']['manifest']['mainnetReplica']['bitcoin']>;

  beforeAll(async () => {
    replica = await startReplicaStack('btcreplica');
    manifest = replica.replica.manifest.mainnetReplica.bitcoin!;
    bitcoin = new DevnetBitcoinWallets(
      new EsploraClient(manifest.esploraUrl),
      () => bitcoinTestWallet('p2wpkh', 7, 'mainnet').key,
    );
  }, 600_000);

  afterAll(async () => {
    await replica?.stop();
  }, 180_000);

  /** Quotes `body` to `recipient`, expects THORChain's route first, and builds it for `userAddress`. */
  async function quoteAndBuild(
    body: Record<string, string>,
    userAddress: string,
    recipient: string,
  ): Promise<{ swapId: string; route: Route }> {
    const caller = { client: replica.client };
    const { quoteId, route } = await quoteFirstRoute<Route>(
      caller,
      { ...body, recipient },
      { timeoutMs: 60_000 },
    );
    expect(route.providers).toEqual(['thorchain']);
    const swapId = await buildSwapId(caller, {
      quoteId,
      routeId: route.routeId,
      userAddress,
      recipient,
      waitForTxRequestMs: 20_000,
    });
    return { swapId, route };
  }

  it('lists the replica’s test wallets with mainnet addresses: bc1q (BIP84), bc1p (BIP86), 3… (BIP49), each funded', async () => {
    expect(manifest.accounts[0].address).toMatch(/^bc1q[02-9ac-hj-np-z]{38}$/);
    expect(manifest.taprootAccounts[0].address).toMatch(/^bc1p[02-9ac-hj-np-z]{58}$/);
    expect(manifest.nestedSegwitAccounts[0].address).toMatch(/^3[1-9A-HJ-NP-Za-km-z]{25,34}$/);
    for (const account of [
      manifest.accounts[0],
      manifest.taprootAccounts[0],
      manifest.nestedSegwitAccounts[0],
    ])
      expect(await bitcoin.satsOf(account.address)).toBe(500_000_000n);
  });

  it('BTC → USDC on base: one PSBT on mainnet signed by a bc1q wallet, its miner fee paid by the service; BTC drops by exactly the amount, the recipient gets the quote', async () => {
    const wallet = await bitcoin.freshWalletWith(5_000_000n);
    expect(wallet.address.startsWith('bc1q')).toBe(true);
    const recipient = Wallet.createRandom();
    const { swapId, route } = await quoteAndBuild(
      { fromChain: 'bitcoin', toChain: 'base', tokenIn: 'BTC', tokenOut: 'USDC', amount: '0.01' },
      wallet.address,
      recipient.address,
    );
    expect(route.signatures).toEqual([
      expect.objectContaining({ chain: 'bitcoin', kind: 'bridge', payloadType: 'bitcoin-psbt' }),
    ]);
    expect(route.gasCoverage.chains[0]).toMatchObject({
      chain: 'bitcoin',
      breakdown: [expect.objectContaining({ kind: 'bitcoin-transaction' })],
    });

    const ready = await nextSigning({ client: replica.client }, swapId, 0);
    expect(ready.status).toBe(200);
    // The wallet's UTXO and the fee wallet's; the payment to THORChain's BTC vault (a bc1q address)
    // carries THORChain's memo naming BASE's USDC by the catalog's contract.
    const { payload, issued } = offeredPsbt(ready.body.data.signing, wallet.address, 'mainnet');
    const vault = btc.OutScript.encode(btc.Address(MAINNET).decode(manifest.thorchain.bitcoinVault));
    expect(manifest.thorchain.bitcoinVault.startsWith('bc1q')).toBe(true);
    expect(Buffer.from(issued.getOutput(0).script!).equals(Buffer.from(vault))).toBe(true);
    expect(issued.getOutput(0).amount).toBe(1_000_000n);
    const memo = parseThorchainSwapMemo(
      Buffer.from(issued.getOutput(1).script!.subarray(2)).toString('utf8'),
    );
    expect(memo).toMatchObject({
      asset: expect.stringMatching(/^BASE\.USDC-[0-9A-F]+$/),
      destination: recipient.address,
    });
    const usdcOnBase = replica.tokenAddress('base', 'USDC').toUpperCase();
    expect(usdcOnBase.endsWith(memo!.asset.split('-')[1])).toBe(true);

    const before = await bitcoin.satsOf(wallet.address);
    const signed = Buffer.from(signWithWallet(payload, wallet).toPSBT()).toString('base64');
    const submitted = await submitSigned({ client: replica.client }, swapId, signed);
    expect(submitted.status).toBe(200);
    expect(submitted.body.data).toMatchObject({ swapId, status: 'submitted', txHash: issued.id });

    const terminal = await nextSigning({ client: replica.client }, swapId, 1);
    expect(terminal.status).toBe(409);
    expect(terminal.body.error).toMatchObject({
      code: 'EXECUTION_TERMINAL',
      details: { status: 'completed' },
    });
    expect(await bitcoin.satsOf(wallet.address)).toBe(before - 1_000_000n);
    const usdc = await firstPayment(
      () => replica.balanceOf('base', 'USDC', recipient.address),
      'the USDC THORChain pays on base for the BTC',
    );
    expect(usdc).toBe(expectedOutBaseUnits(route));
    expect(await replica.ethOf('base', recipient.address)).toBe(0n);
  });

  it('USDC on arbitrum → BTC: a wallet with no ETH sends approve and depositWithExpiry to THORChain’s router, gas covered; the bc1p recipient gets exactly the quote', async () => {
    const wallet = await replica.freshWalletWith('arbitrum', 'USDC', parseUnits('900', 6));
    expect(await replica.ethOf('arbitrum', wallet.address)).toBe(0n);
    const recipient = bitcoinWalletOf(secp256k1.utils.randomSecretKey(), 'p2tr', 'mainnet');
    expect(recipient.address.startsWith('bc1p')).toBe(true);
    const { swapId, route } = await quoteAndBuild(
      { fromChain: 'arbitrum', toChain: 'bitcoin', tokenIn: 'USDC', tokenOut: 'BTC', amount: '900' },
      wallet.address,
      recipient.address,
    );
    const inbound = (await (
      await fetch(`${manifest.thorchain.thornodeUrl}/thorchain/inbound_addresses`)
    ).json()) as {
      chain: string;
      address: string;
      router: string;
    }[];
    const arb = inbound.find((entry) => entry.chain === 'ARB')!;
    const sent: { to: string; data: string }[] = [];
    await handleEveryStep({ client: replica.client }, swapId, async (signing) => {
      expect(signing.executionHints).toMatchObject({ gasPaidBy: 'service' });
      const transaction = signableTransaction(signing);
      sent.push({ to: String(transaction.to), data: String(transaction.data) });
      const rawTx = await wallet.connect(replica.provider('arbitrum')).signTransaction(transaction);
      expect((await submitSigned({ client: replica.client }, swapId, rawTx)).status).toBe(200);
    });
    expect(sent).toHaveLength(2);
    const [approve, deposit] = sent;
    const usdc = getAddress(replica.tokenAddress('arbitrum', 'USDC'));
    expect(getAddress(approve.to)).toBe(usdc);
    expect(getAddress(ERC20.decodeFunctionData('approve', approve.data)[0] as string)).toBe(
      getAddress(arb.router),
    );
    expect(getAddress(deposit.to)).toBe(getAddress(manifest.thorchain.router));
    const [vault, asset, , memo] = THORCHAIN_ROUTER.decodeFunctionData('depositWithExpiry', deposit.data);
    expect(getAddress(vault as string)).toBe(getAddress(arb.address));
    expect(asset).toBe(usdc);
    expect(parseThorchainSwapMemo(memo as string)).toMatchObject({
      asset: 'BTC.BTC',
      destination: recipient.address,
      limit: parseUnits(route.minAmountOut, 8),
    });

    // The wallet paid its USDC and no gas of its own: the service sent each transaction's gas first
    // (THORChain's router cannot be called through our router: no intent to relay), so what is left
    // of that top-up stays with the wallet.
    expect(await replica.balanceOf('arbitrum', 'USDC', wallet.address)).toBe(0n);
    // The swap completed once THORNode's tx/status said the outbound was signed: the BTC is already
    // at the bc1p recipient (in the mempool or a block), exactly the quote.
    expect(await bitcoin.satsOf(recipient.address)).toBe(expectedOutBaseUnits(route));
  });
});
