// Fee bumps of stuck sponsored Bitcoin transactions against the real devnet chain (its Esplora API,
// miner paused, fee-rate floor raised) and the real signer schema (PostgreSQL only): the fee
// wallets, the ledger and the relayed-transaction tracker as the app builds them.
import { type Clock, SystemClock } from '@swapgw/runtime';
import * as btc from '@scure/btc-signer';
import { base64 } from '@scure/base';
import { ChainRegistry, DevnetBitcoinView, DevnetManifestView } from '@swapgw/chains';
import {
  BITCOIN_NETWORKS,
  BITCOIN_TX_OPTIONS,
  BitcoinChainClient,
  bitcoinFeeInputOf,
  BitcoinSigningChainClientImpl,
  buildBitcoinStepPsbt,
  completeSponsoredBitcoinStep,
  verifySignedBitcoinStep,
} from '@swapgw/chains/families';
import { bitcoinDevnetKey, BitcoinDevnetHandle, signPayment, startBitcoinDevnet } from '@swapgw/devnet';
import { prepareDatabase, serviceDataSourceOptions } from '@swapgw/persistence';
import { testEnv } from '@swapgw/testing';
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { DataSource, type FindOptionsWhere } from 'typeorm';
import { SignerChains } from '../../chains/signer-chains';
import { signerDatabaseOptions } from '../../database/signer-database';
import { BitcoinFeeBumps } from './bitcoin-fee-bump';
import { BitcoinFeeInputsRepository } from './bitcoin-fee-inputs.repository';
import { BitcoinFeeWallets } from './bitcoin-fee-wallets';
import { BitcoinSettlement } from './bitcoin-settlement';
import { RelayedTransactionTracker } from '../../sponsorship/tracking/relayed-transaction-tracker';
import { TrackedRows } from '../../sponsorship/tracking/tracked-rows';
import { RelayerKeySet } from '../../sponsorship/relayer-keys';
import { EvmRelayedTracking, RelayerPool } from '../evm';
import { SponsoredTransactionEntity } from '../../sponsorship/sponsored-transaction.entity';
import { SponsorshipBudget } from '../../sponsorship/sponsorship-budget';
import { relayersOn, relayingRepositoriesOf } from '../../../test/relaying-repositories';
import { SponsorshipBudgetLimits, WeiByChain } from '../../sponsorship/wei-settings';

const CHAIN = 'bitcoin-devnet';
const HOUR = 3_600_000;
const STUCK_MS = 5_000;
const feeWalletKey = bitcoinDevnetKey('fee-wallet', 0);
const databaseUrl = testEnv().databaseUrl;
const schema = `signer_btcbump_${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;

let devnet: BitcoinDevnetHandle;
let dataSource: DataSource;
let chains: SignerChains;
let esplora: BitcoinChainClient;
let feeWallets: BitcoinFeeWallets;
let tracker: RelayedTransactionTracker;
let nowMs = Date.now();
const now: Clock = { nowMs: () => nowMs };

beforeAll(async () => {
  devnet = await startBitcoinDevnet({ port: 0, bridgeFeeBps: 5 });
  // Blocks come when a test mines one.
  devnet.miner.pause();
  esplora = new BitcoinChainClient(devnet.manifest.esploraUrl, 5_000);
  await prepareDatabase(signerDatabaseOptions(databaseUrl, 1, schema));
  dataSource = new DataSource(serviceDataSourceOptions(signerDatabaseOptions(databaseUrl, 5, schema)));
  await dataSource.initialize();
  chains = new SignerChains(
    new ChainRegistry({
      manifest: {
        generatedAtMs: 0,
        chains: [],
        accounts: [],
        bitcoin: devnet.manifest as unknown as DevnetBitcoinView,
      } as DevnetManifestView,
    }),
    5_000,
  );
  feeWallets = new BitcoinFeeWallets(
    new RelayerKeySet(
      new Map([[CHAIN, [btc.WIF(BITCOIN_NETWORKS.regtest).encode(feeWalletKey.privateKey)]]]),
    ),
    chains,
    100_000n,
    new BitcoinFeeInputsRepository(dataSource),
    relayingRepositoriesOf(dataSource).feeAccounts,
  );
  const pool = new RelayerPool(new RelayerKeySet(), chains, new WeiByChain(0n));
  const feeBumps = new BitcoinFeeBumps(
    dataSource,
    relayingRepositoriesOf(dataSource).transactions,
    relayingRepositoriesOf(dataSource).feeAccounts,
    feeWallets,
    { stuckAfterMs: STUCK_MS, maxFeeRate: 50, marginPercent: 10 },
    now,
  );
  const rows = new TrackedRows(
    relayingRepositoriesOf(dataSource).transactions,
    {
      pollMs: 100,
      stuckAfterMs: 1_000,
      feeBumpPercent: 25,
      batchSize: 20,
      leaseMs: 30_000,
      balanceRefreshMs: HOUR,
      reconcileMs: HOUR,
    },
    now,
  );
  tracker = new RelayedTransactionTracker(rows, [
    new EvmRelayedTracking(chains, pool, relayersOn(dataSource, chains, pool, {} as never, now), rows),
    new BitcoinSettlement(rows, feeWallets, feeBumps),
  ]);
});

afterAll(async () => {
  await dataSource?.destroy();
  chains?.destroy();
  await devnet?.stop();
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
});

afterEach(() => {
  devnet.chain.minFeeRate = 1;
  devnet.miner.mineNow();
});

/** Advances the tracker's clock past its poll and runs one pass. */
const pass = async (advanceMs = 200) => {
  nowMs += advanceMs;
  await tracker.runOnce();
};

const ledgerRow = (where: FindOptionsWhere<SponsoredTransactionEntity>) =>
  dataSource.manager.findOneByOrFail(SponsoredTransactionEntity, where);

/**
 * A sponsored step's transaction as the signing flow makes it: the PSBT at `feeRate` spending a
 * 1 BTC coin of test wallet `walletIndex` and a held UTXO of the fee wallet, the user's inputs
 * signed by the wallet, the fee input by the fee wallet, recorded in the ledger and broadcast.
 */
async function sponsoredStep(swapId: string, walletIndex: number, feeRate: number) {
  const user = bitcoinDevnetKey('wallet', walletIndex);
  const coin = (await esplora.utxos(user.address)).find((u) => u.value === 100_000_000n && u.confirmed)!;
  const step = { chain: CHAIN, swapId, stepIndex: 0 };
  const feeUtxo = await feeWallets.hold(step, 10_000n, nowMs + HOUR, nowMs);
  const built = buildBitcoinStepPsbt({
    network: 'regtest',
    userAddress: user.address,
    userUtxos: [coin],
    payment: { address: devnet.manifest.bridge.vault, amount: 1_000_000n },
    memo: `=:ETH.USDC:${swapId}`,
    feeUtxo,
    feeRate,
  });
  const signing = btc.Transaction.fromPSBT(base64.decode(built.psbtBase64), BITCOIN_TX_OPTIONS);
  signing.signIdx(user.privateKey, 0);
  const verified = verifySignedBitcoinStep(built.psbtBase64, base64.encode(signing.toPSBT()));
  const completed = feeWallets.withKey(feeUtxo.address, (key) =>
    completeSponsoredBitcoinStep(verified, key),
  )!;
  const id = await dataSource.transaction((manager) =>
    feeWallets.record(
      manager,
      {
        chain: CHAIN,
        feeWallet: feeUtxo.address,
        wallet: user.address,
        swapId,
        stepIndex: 0,
        owner: 'key-1',
        txid: completed.txid,
        rawTx: completed.rawTxHex,
        feeSats: completed.fee,
        feeInput: bitcoinFeeInputOf(verified),
      },
      nowMs,
    ),
  );
  expect(await esplora.broadcast(completed.rawTxHex)).toEqual({ kind: 'sent' });
  return { id, user, coin, feeUtxo, ...completed };
}

describe('fee bumps of stuck sponsored Bitcoin transactions (devnet chain, PostgreSQL)', () => {
  it('a step transaction stuck under a raised miner floor gets a CPFP child from the fee wallet, replaced (RBF) when the floor rises again; both confirm and the budget counts both fees', async () => {
    const parent = await sponsoredStep('swap-stuck', 1, 1);
    devnet.chain.minFeeRate = 5;
    devnet.miner.mineNow();
    expect((await esplora.progress(parent.txid, 1)).kind).toBe('in-pool');

    // In the mempool, not yet BITCOIN_STUCK_AFTER_MS old: nothing.
    await pass();
    expect(
      await dataSource.manager.countBy(SponsoredTransactionEntity, { purpose: 'bitcoin-fee-bump' }),
    ).toBe(0);

    // Stuck: a child of the fee wallet's change (the last output) lifts the package past 5 sat/vB.
    await pass(STUCK_MS);
    const bump = await ledgerRow({ purpose: 'bitcoin-fee-bump', swapId: 'swap-stuck' });
    expect(bump).toMatchObject({
      status: 'pending',
      relayer: feeWalletKey.address,
      to: feeWalletKey.address,
      owner: 'key-1',
      nonce: null,
    });
    expect(bump.attempts).toHaveLength(1);
    const child = devnet.chain.transaction(bump.txHash)!;
    const spent = child.tx.getInput(0);
    expect(Buffer.from(spent.txid!).toString('hex')).toBe(parent.txid);
    expect(spent.index).toBe(
      btc.Transaction.fromRaw(Buffer.from(parent.rawTxHex, 'hex'), BITCOIN_TX_OPTIONS).outputsLength - 1,
    );
    expect(child.fee.toString()).toBe(bump.attempts[0].feeSats);
    const packageRate = (tx: { fee: bigint; vsize: number }) =>
      Number(parent.fee + tx.fee) / (devnet.chain.transaction(parent.txid)!.vsize + tx.vsize);
    expect(packageRate(child)).toBeGreaterThanOrEqual(5.5);

    // The floor rises past the package: after another interval the child is replaced.
    devnet.chain.minFeeRate = 12;
    devnet.miner.mineNow();
    await pass(1_000);
    expect((await ledgerRow({ id: bump.id })).attempts).toHaveLength(1);
    await pass(STUCK_MS);
    const replaced = await ledgerRow({ id: bump.id });
    expect(replaced.attempts).toHaveLength(2);
    expect(replaced.txHash).not.toBe(bump.txHash);
    expect(devnet.chain.transaction(bump.txHash)).toBeUndefined();
    const replacement = devnet.chain.transaction(replaced.txHash)!;
    expect(packageRate(replacement)).toBeGreaterThanOrEqual(12);

    // Mined together, parent first; the tracker settles both at what they paid.
    const block = devnet.miner.mineNow()[0];
    const order = block.txids.indexOf(parent.txid);
    expect(order).toBeGreaterThan(0);
    expect(block.txids[order + 1]).toBe(replaced.txHash);
    await pass();
    expect(await ledgerRow({ id: parent.id })).toMatchObject({ status: 'confirmed', costWei: parent.fee });
    expect(await ledgerRow({ id: bump.id })).toMatchObject({
      status: 'confirmed',
      txHash: replacement.txid,
      costWei: replacement.fee,
      blockNumber: block.height,
    });
    const budget = new SponsorshipBudget(
      relayingRepositoriesOf(dataSource).transactions,
      new SponsorshipBudgetLimits(10_000_000n),
      new SystemClock(),
    );
    expect(await budget.spentToday('key-1', CHAIN)).toBe(parent.fee + replacement.fee);
  });

  it('a step transaction whose input the user spent elsewhere is dropped with the reason, its fee input freed; the step client says it can never confirm', async () => {
    devnet.chain.minFeeRate = 5;
    const parent = await sponsoredStep('swap-double-spent', 2, 1);
    // The user's wallet replaces it (BIP125: both signal) with a payment to themselves.
    const elsewhere = signPayment({
      key: parent.user,
      coins: [{ txid: parent.coin.txid, vout: parent.coin.vout, value: parent.coin.value }],
      outputs: [{ address: parent.user.address, amount: 90_000_000n }],
      fee: 20_000n,
    });
    expect(await esplora.broadcast(elsewhere.hex)).toEqual({ kind: 'sent' });
    expect((await esplora.progress(parent.txid, 1)).kind).toBe('unknown');

    await pass();
    const row = await ledgerRow({ id: parent.id });
    expect(row).toMatchObject({ status: 'dropped', costWei: 0n, failureCode: 'RELAY_DROPPED' });
    expect(row.failureReason).toBe(
      `input ${parent.coin.txid}:${parent.coin.vout} of Bitcoin transaction ${parent.txid} was spent by transaction ${elsewhere.txid}: it can never be mined`,
    );
    const holds = (await dataSource.query(
      `SELECT 1 FROM "${schema}"."bitcoin_fee_inputs" WHERE "txid" = $1 AND "vout" = $2`,
      [parent.feeUtxo.txid, parent.feeUtxo.vout],
    )) as unknown[];
    expect(holds).toHaveLength(0);

    // What the confirmation tracker fails the step with (TX_REJECTED and this reason).
    const client = new BitcoinSigningChainClientImpl(
      chains.find(CHAIN)!,
      esplora,
      'regtest',
      devnet.manifest.esploraUrl,
      5_000,
    );
    expect(await client.resend(parent.rawTxHex, parent.txid)).toEqual({
      kind: 'expired',
      reason: `input ${parent.coin.txid}:${parent.coin.vout} of Bitcoin transaction ${parent.txid} was spent by transaction ${elsewhere.txid} (the wallet spent it elsewhere or replaced this transaction): it can never confirm`,
    });
  });

  it('a step transaction the node dropped is sent again by the step client, and its fee bump child by the tracker', async () => {
    const parent = await sponsoredStep('swap-dropped', 3, 1);
    devnet.chain.minFeeRate = 5;
    await pass(STUCK_MS);
    const bump = await ledgerRow({ purpose: 'bitcoin-fee-bump', swapId: 'swap-dropped' });
    expect(devnet.chain.evict(parent.txid)).toEqual([parent.txid, bump.txHash]);
    expect((await esplora.progress(parent.txid, 1)).kind).toBe('unknown');

    const client = new BitcoinSigningChainClientImpl(
      chains.find(CHAIN)!,
      esplora,
      'regtest',
      devnet.manifest.esploraUrl,
      5_000,
    );
    expect(await client.resend(parent.rawTxHex, parent.txid)).toEqual({ kind: 'sent' });
    expect((await esplora.progress(parent.txid, 1)).kind).toBe('in-pool');
    await pass();
    expect((await esplora.progress(bump.txHash, 1)).kind).toBe('in-pool');

    devnet.miner.mineNow();
    await pass();
    expect(await ledgerRow({ id: parent.id })).toMatchObject({ status: 'confirmed' });
    expect(await ledgerRow({ id: bump.id })).toMatchObject({ status: 'confirmed', txHash: bump.txHash });
  });
});
