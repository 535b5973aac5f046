import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { TransactionMessage, VersionedTransaction } from '@solana/web3.js';
import { Contract, JsonRpcProvider, parseUnits } from 'ethers';
import { freePort, waitFor } from '@swapgw/testing';
import {
  bitcoinBridgeDepositMemo,
  bitcoinBridgeRefundMemo,
  bitcoinRecipientToBytes32,
  opReturnScript,
  satsForUsdc,
  usdcForSats,
} from '@swapgw/chains/bitcoin-bridge';
import { solanaBridgeDepositInstructions } from '@swapgw/chains/solana-bridge';
import { devnetWallet } from './accounts';
import { bitcoinDevnetKey } from './bitcoin/bitcoin-keys';
import { p2trOf, signPayment } from './bitcoin/bitcoin-wallet';
import { EsploraClient, EsploraTransaction } from './bitcoin/esplora-client';
import { RecordingLogger } from './bridge/recording-logger';
import { DEVNET_BRIDGE_ABI, ERC20_PERMIT_ABI } from './contracts/abis';
import { localProvider } from './evm-provider';
import { devnetChain, loadDevnetManifest } from './manifest';
import { solanaConnection, solanaTestWallet } from './solana';
import { RunningDevnet, startDevnet } from './start-devnet';

// The whole devnet on free ports, bridging native BTC to and from USDC through the relayer, checked
// as a user would: balances read on each chain (ERC-20 balanceOf, Esplora, the SPL account).
describe('devnet bridge between Bitcoin and the USDC chains', () => {
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'swapgw-devnet-bitcoin-'));
  const manifestPath = path.join(workDir, 'manifest.json');
  const logger = new RecordingLogger();
  let devnet: RunningDevnet;
  let esplora: EsploraClient;
  let evm: JsonRpcProvider;

  const bitcoin = () => devnet.manifest.bitcoin;
  const chainA = () => devnetChain(devnet.manifest, 'devnet-a');
  const budgetMs = () => bitcoin().bridge.estimatedDurationSeconds * 1000 + 2_000;
  const usdcA = () => new Contract(chainA().tokens.USDC.address, ERC20_PERMIT_ABI, evm);
  const satsAt = async (address: string) =>
    (await esplora.utxos(address)).reduce((sum, u) => sum + BigInt(u.value), 0n);
  const coinsOf = async (address: string) =>
    (await esplora.utxos(address))
      .filter((u) => u.status.confirmed)
      .map((u) => ({ txid: u.txid, vout: u.vout, value: BigInt(u.value) }));

  /** The vault's refund of a `sats` deposit to `address`: what it received less the outbound fee. */
  const refundTo = (address: string, sats: bigint) =>
    waitFor(
      async () =>
        (await esplora.json<EsploraTransaction[]>(`/address/${address}/txs`)).find(
          (tx) =>
            tx.vout.some(
              (o) =>
                o.scriptpubkey_address === address &&
                BigInt(o.value) === sats - BigInt(bitcoin().bridge.outboundFeeSats),
            ) && tx.vin.some((i) => i.prevout?.scriptpubkey_address === bitcoin().bridge.vault),
        ),
      { timeoutMs: budgetMs(), intervalMs: 100, description: `the refund to ${address}` },
    );

  beforeAll(async () => {
    devnet = await startDevnet({
      manifestPath,
      portA: await freePort(),
      portB: await freePort(),
      portSolana: await freePort(),
      bitcoinBlockMs: 300,
      logger,
    });
    esplora = new EsploraClient(devnet.manifest.bitcoin.esploraUrl);
    evm = localProvider(chainA().rpcUrl, chainA().chainId);
  }, 90_000);

  afterAll(async () => {
    process.stderr.write(
      'DEBUG ' + JSON.stringify(logger.lines.filter((l) => l.level !== 'log').slice(0, 5)) + '\n',
    );
    evm?.destroy();
    await devnet?.stop();
    fs.rmSync(workDir, { recursive: true, force: true });
  });

  it('writes the Bitcoin chain into a manifest that validates', () => {
    const manifest = loadDevnetManifest(manifestPath);
    expect(manifest.bitcoin).toEqual(devnet.manifest.bitcoin);
    expect(manifest.bitcoin).toMatchObject({
      id: 'bitcoin-devnet',
      name: 'Bitcoin Devnet',
      family: 'bitcoin',
      network: 'regtest',
      nativeSymbol: 'BTC',
      decimals: 8,
      blockMs: 300,
      bridge: {
        chainId: 20000000000001,
        token: 'USDC',
        usdcPerBtc: 90_000,
        feeBps: 5,
        vault: bitcoinDevnetKey('bridge-vault', 0).address,
      },
    });
    expect(manifest.bitcoin.esploraUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(manifest.bitcoin.accounts.map((a) => a.index)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(manifest.bitcoin.feeWallets.map((a) => a.index)).toEqual([0, 1]);
  });

  it('pays USDC on devnet-a for a BTC deposit with a memo', async () => {
    const sender = bitcoinDevnetKey('wallet', 1);
    const recipient = devnetWallet(devnet.manifest.mnemonic, 7).address;
    const sats = 10_000_000n; // 0.1 BTC = 9,000 USDC, less 5 bps: 8,995.5 USDC
    const expected = usdcForSats(sats, bitcoin().bridge);
    expect(expected).toBe(parseUnits('8995.5', 6));
    const memo = bitcoinBridgeDepositMemo({
      destinationChain: 'devnet-a',
      asset: 'USDC',
      recipient,
      minAmountOut: expected,
    });
    const before = (await usdcA().balanceOf(recipient)) as bigint;

    const deposit = signPayment({
      key: sender,
      coins: await coinsOf(sender.address),
      outputs: [
        { address: bitcoin().bridge.vault, amount: sats },
        { script: opReturnScript(memo), amount: 0n },
      ],
      fee: 500n,
    });
    await esplora.broadcast(deposit.hex);
    await waitFor(async () => ((await usdcA().balanceOf(recipient)) as bigint) === before + expected, {
      timeoutMs: budgetMs(),
      intervalMs: 100,
      description: `${expected} USDC units paid to ${recipient} on devnet-a`,
    });
    // The EVM bridge recorded the release under Bitcoin's chain id and the txid as nonce.
    const bridge = new Contract(chainA().bridge.address, DEVNET_BRIDGE_ABI, evm);
    expect(await bridge.released(bitcoin().bridge.chainId, BigInt(`0x${deposit.txid}`))).toBe(true);
  });

  it('refunds a deposit whose minimum out the price cannot meet, less the outbound fee', async () => {
    const sender = bitcoinDevnetKey('wallet', 2);
    const recipient = devnetWallet(devnet.manifest.mnemonic, 7).address;
    const sats = 5_000_000n;
    const memo = bitcoinBridgeDepositMemo({
      destinationChain: 'devnet-a',
      asset: 'USDC',
      recipient,
      minAmountOut: usdcForSats(sats, bitcoin().bridge) + 1n,
    });
    const deposit = signPayment({
      key: sender,
      coins: await coinsOf(sender.address),
      outputs: [
        { address: bitcoin().bridge.vault, amount: sats },
        { script: opReturnScript(memo), amount: 0n },
      ],
      fee: 500n,
    });
    await esplora.broadcast(deposit.hex);
    const refund = await refundTo(sender.address, sats);
    expect(refund.vout.find((o) => o.scriptpubkey_type === 'op_return')?.scriptpubkey_asm).toContain(
      Buffer.from(bitcoinBridgeRefundMemo(deposit.txid)).toString('hex'),
    );
    expect(
      logger.lines.some(
        (l) => String(l.message.msg).startsWith('bridge deposit refunded') && l.message.txid === deposit.txid,
      ),
    ).toBe(true);
  });

  it('refunds a deposit naming Noble with an account Noble would not mint to (another bech32 prefix)', async () => {
    const sender = bitcoinDevnetKey('wallet', 3);
    const sats = 2_000_000n;
    // A valid bech32 account of 20 bytes, but Osmosis's: Noble's CCTP end mints to noble1… only.
    const osmosisAccount = 'osmo1qypqxpq9qcrsszg2pvxq6rs0zqg3yyc5helwsw';
    const memo = bitcoinBridgeDepositMemo({
      destinationChain: 'noble-devnet',
      asset: 'USDC',
      recipient: osmosisAccount,
      minAmountOut: 1n,
    });
    const deposit = signPayment({
      key: sender,
      coins: await coinsOf(sender.address),
      outputs: [
        { address: bitcoin().bridge.vault, amount: sats },
        { script: opReturnScript(memo), amount: 0n },
      ],
      fee: 500n,
    });
    await esplora.broadcast(deposit.hex);
    const refund = await refundTo(sender.address, sats);
    expect(refund.vout.find((o) => o.scriptpubkey_type === 'op_return')?.scriptpubkey_asm).toContain(
      Buffer.from(bitcoinBridgeRefundMemo(deposit.txid)).toString('hex'),
    );
    expect(logger.lines.find((l) => l.message.txid === deposit.txid && l.level === 'warn')?.message.msg).toBe(
      'bridge deposit refunded (the bridge pays no USDC to that recipient on noble-devnet)',
    );
  });

  it('pays BTC to a bcrt1q address for an EVM depositTo of USDC, once', async () => {
    const sender = devnetWallet(devnet.manifest.mnemonic, 4, evm);
    const recipient = bitcoinDevnetKey(
      'wallet',
      9,
      'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about',
    ).address;
    const amount = parseUnits('900', 6); // 899.55 USDC after the bridge fee: 999,500 sats
    const usdc = new Contract(chainA().tokens.USDC.address, ERC20_PERMIT_ABI, sender);
    const bridge = new Contract(chainA().bridge.address, DEVNET_BRIDGE_ABI, sender);
    await (await usdc.approve(chainA().bridge.address, amount)).wait();
    await (
      await bridge.depositTo(amount, bitcoin().bridge.chainId, bitcoinRecipientToBytes32(recipient))
    ).wait();
    const expected =
      satsForUsdc(parseUnits('899.55', 6), bitcoin().bridge) - BigInt(bitcoin().bridge.outboundFeeSats);
    expect(expected).toBe(998_500n);

    await waitFor(async () => (await satsAt(recipient)) === expected, {
      timeoutMs: budgetMs(),
      intervalMs: 100,
      description: `${expected} sats at ${recipient}`,
    });
    const stats = await waitFor(
      async () => {
        const address = await esplora.json<{ chain_stats: { funded_txo_sum: number; tx_count: number } }>(
          `/address/${recipient}`,
        );
        return address.chain_stats.tx_count === 1 ? address : undefined;
      },
      { timeoutMs: budgetMs(), intervalMs: 100, description: 'the payout confirmed' },
    );
    expect(stats.chain_stats.funded_txo_sum).toBe(Number(expected));
  });

  it('pays BTC to a P2TR address for a Solana deposit with a Bitcoin recipient', async () => {
    const user = solanaTestWallet(3);
    const connection = solanaConnection(devnet.manifest.solana.rpcUrl);
    const recipient = p2trOf(
      bitcoinDevnetKey(
        'wallet',
        8,
        'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about',
      ),
    ).address;
    const amount = parseUnits('90', 6); // 89.955 USDC after the fee: 99,950 sats
    const { blockhash } = await connection.getLatestBlockhash();
    const tx = new VersionedTransaction(
      new TransactionMessage({
        payerKey: user.publicKey,
        recentBlockhash: blockhash,
        instructions: solanaBridgeDepositInstructions({
          user: user.publicKey,
          amount,
          destinationChainId: bitcoin().bridge.chainId,
          recipient,
          manifest: devnet.manifest.solana,
        }),
      }).compileToV0Message(),
    );
    tx.sign([user]);
    await connection.sendRawTransaction(tx.serialize());
    const expected =
      satsForUsdc(parseUnits('89.955', 6), bitcoin().bridge) - BigInt(bitcoin().bridge.outboundFeeSats);
    await waitFor(async () => (await satsAt(recipient)) === expected, {
      timeoutMs: budgetMs(),
      intervalMs: 100,
      description: `${expected} sats at ${recipient}`,
    });
  });
});
