// The Bitcoin fee wallets' holds and ledger rows on the real signer schema (PostgreSQL only): the
// chain is a local HTTP server answering Esplora's `GET /address/:a/utxo`, `GET /tx/:txid/status` and
// `GET /blocks/tip/height`.
import { type Clock, SystemClock } from '@swapgw/runtime';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import * as btc from '@scure/btc-signer';
import { ChainRegistry, DevnetBitcoinView, DevnetManifestView } from '@swapgw/chains';
import { BITCOIN_NETWORKS } from '@swapgw/chains/families';
import { prepareDatabase, serviceDataSourceOptions } from '@swapgw/persistence';
import { testEnv } from '@swapgw/testing';
import { createHash, randomBytes } from 'node:crypto';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { SignerChains } from '../../chains/signer-chains';
import { signerDatabaseOptions } from '../../database/signer-database';
import type { SponsoredBitcoinTransaction } from './bitcoin-fee-wallets';
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
const keyOf = (seed: number) => new Uint8Array(32).fill(seed);
const wifOf = (key: Uint8Array) => btc.WIF(BITCOIN_NETWORKS.regtest).encode(key);
const addressOf = (key: Uint8Array) =>
  btc.p2wpkh(secp256k1.getPublicKey(key, true), BITCOIN_NETWORKS.regtest).address!;
const txidOf = (label: string) => createHash('sha256').update(label).digest('hex');

const walletA = addressOf(keyOf(0x21));
const walletB = addressOf(keyOf(0x22));

interface StubUtxo {
  txid: string;
  vout: number;
  value: number;
  confirmed: boolean;
}

/** What the stub chain knows: each address's UTXOs, each transaction's status (absent: unknown). */
class EsploraStub {
  readonly utxos = new Map<string, StubUtxo[]>();
  readonly transactions = new Map<string, { confirmed: boolean; blockTime?: number }>();
  private server?: Server;

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      const utxo = /^\/address\/([a-z0-9]+)\/utxo$/.exec(req.url ?? '');
      const status = /^\/tx\/([0-9a-f]{64})\/status$/.exec(req.url ?? '');
      if (req.url === '/blocks/tip/height') {
        res.writeHead(200, { 'content-type': 'text/plain' }).end('102');
      } else if (utxo) {
        const list = (this.utxos.get(utxo[1]) ?? []).map((u) => ({
          txid: u.txid,
          vout: u.vout,
          value: u.value,
          status: u.confirmed ? { confirmed: true, block_height: 101 } : { confirmed: false },
        }));
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(list));
      } else if (status && this.transactions.has(status[1])) {
        const tx = this.transactions.get(status[1])!;
        const body = tx.confirmed
          ? { confirmed: true, block_height: 102, block_time: tx.blockTime }
          : { confirmed: false };
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      } else {
        res.writeHead(404).end('Transaction not found');
      }
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }
}

const stub = new EsploraStub();
const databaseUrl = testEnv().databaseUrl;
const schema = `signer_btcfee_${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
let dataSource: DataSource;
let chains: SignerChains;
let nowMs = 1_800_000_000_000;
const now: Clock = { nowMs: () => nowMs };
let feeWallets: BitcoinFeeWallets;

const step = (swapId: string, stepIndex = 0) => ({ chain: CHAIN, swapId, stepIndex });
const HOUR = 3_600_000;

beforeAll(async () => {
  const esploraUrl = await stub.start();
  await prepareDatabase(signerDatabaseOptions(databaseUrl, 1, schema));
  dataSource = new DataSource(serviceDataSourceOptions(signerDatabaseOptions(databaseUrl, 5, schema)));
  await dataSource.initialize();
  const bitcoin = {
    id: CHAIN,
    name: 'Bitcoin devnet',
    family: 'bitcoin',
    network: 'regtest',
    esploraUrl,
    nativeSymbol: 'BTC',
    decimals: 8,
    blockMs: 1000,
    accounts: [],
    feeWallets: [],
  } as unknown as DevnetBitcoinView;
  chains = new SignerChains(
    new ChainRegistry({
      manifest: { generatedAtMs: 0, chains: [], accounts: [], bitcoin } as DevnetManifestView,
    }),
    5_000,
  );
  feeWallets = new BitcoinFeeWallets(
    new RelayerKeySet(new Map([[CHAIN, [wifOf(keyOf(0x21)), wifOf(keyOf(0x22))]]])),
    chains,
    100_000n,
    new BitcoinFeeInputsRepository(dataSource),
    relayingRepositoriesOf(dataSource).feeAccounts,
  );
});

afterAll(async () => {
  await dataSource?.destroy();
  chains?.destroy();
  await stub.stop();
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
});

beforeEach(async () => {
  await dataSource.query(`DELETE FROM "${schema}"."bitcoin_fee_inputs"`);
  await dataSource.query(`DELETE FROM "${schema}"."sponsored_transactions"`);
  stub.utxos.clear();
  stub.transactions.clear();
});

describe('BitcoinFeeWallets holds', () => {
  it('takes the smallest confirmed UTXO that covers the step, of a wallet above its minimum balance; two steps at once get different ones; the same step again gets the same one', async () => {
    stub.utxos.set(walletA, [
      { txid: txidOf('a-big'), vout: 0, value: 4_000_000, confirmed: true },
      { txid: txidOf('a-small'), vout: 1, value: 30_000, confirmed: true },
      { txid: txidOf('a-fits'), vout: 0, value: 60_000, confirmed: true },
      { txid: txidOf('a-mempool'), vout: 0, value: 55_000, confirmed: false },
    ]);
    // Under its minimum balance (100,000 sats): never used, whatever its UTXOs.
    stub.utxos.set(walletB, [{ txid: txidOf('b-poor'), vout: 0, value: 50_000, confirmed: true }]);

    const [first, second] = await Promise.all([
      feeWallets.hold(step('swap-1'), 50_000n, nowMs + HOUR, nowMs),
      feeWallets.hold(step('swap-2'), 50_000n, nowMs + HOUR, nowMs),
    ]);
    expect(new Set([first.txid, second.txid])).toEqual(new Set([txidOf('a-fits'), txidOf('a-big')]));
    for (const held of [first, second]) expect(held).toMatchObject({ chain: CHAIN, address: walletA });
    const ofSwap1 = first;

    // The same step again (a refreshed payload), even at the same time as itself: the same UTXO.
    const again = await Promise.all([
      feeWallets.hold(step('swap-1'), 50_000n, nowMs + HOUR, nowMs),
      feeWallets.hold(step('swap-1'), 50_000n, nowMs + HOUR, nowMs),
    ]);
    expect(again).toEqual([ofSwap1, ofSwap1]);

    // A third step: nothing confirmed and free is large enough.
    await expect(feeWallets.hold(step('swap-3'), 50_000n, nowMs + HOUR, nowMs)).rejects.toMatchObject({
      code: 'SPONSORSHIP_UNAVAILABLE',
    });
    const rows = (await dataSource.query(
      `SELECT "swap_id", "txid", "value"::text AS "value" FROM "${schema}"."bitcoin_fee_inputs" ORDER BY "swap_id"`,
    )) as Array<{ swap_id: string; txid: string; value: string }>;
    expect(rows.map((r) => r.swap_id)).toEqual(['swap-1', 'swap-2']);
  });

  it('an expired unspent hold is taken by another step; a released one too; a spent one never is', async () => {
    stub.utxos.set(walletA, [{ txid: txidOf('only'), vout: 2, value: 500_000, confirmed: true }]);
    const held = await feeWallets.hold(step('swap-old'), 10_000n, nowMs + 1_000, nowMs);
    await expect(feeWallets.hold(step('swap-new'), 10_000n, nowMs + HOUR, nowMs + 999)).rejects.toMatchObject(
      {
        code: 'SPONSORSHIP_UNAVAILABLE',
      },
    );
    // Expired, never spent: another step takes it.
    expect(await feeWallets.hold(step('swap-new'), 10_000n, nowMs + HOUR, nowMs + 1_000)).toEqual(held);
    // Released: free at once.
    await feeWallets.release(step('swap-new'));
    expect(await feeWallets.hold(step('swap-old', 1), 10_000n, nowMs + 2_000, nowMs + 1_500)).toEqual(held);

    // Spent by the transaction the service signed for the step: its hold expiring frees nothing.
    await dataSource.transaction((manager) =>
      feeWallets.record(manager, transactionOf('swap-old', 1, held, 'tx-of-swap-old'), nowMs + 1_600),
    );
    await expect(
      feeWallets.hold(step('swap-later'), 10_000n, nowMs + 10 * HOUR, nowMs + 5 * HOUR),
    ).rejects.toMatchObject({ code: 'SPONSORSHIP_UNAVAILABLE' });
    // ... nor does releasing the step.
    await feeWallets.release(step('swap-old', 1));
    await expect(
      feeWallets.hold(step('swap-later'), 10_000n, nowMs + 10 * HOUR, nowMs + 5 * HOUR),
    ).rejects.toMatchObject({ code: 'SPONSORSHIP_UNAVAILABLE' });
  });

  it('recordBitcoin writes the pending ledger row (sats, no nonce) and marks the hold spent; a fee input the step does not hold is refused and nothing is written', async () => {
    stub.utxos.set(walletB, [{ txid: txidOf('b-coin'), vout: 0, value: 400_000, confirmed: true }]);
    const held = await feeWallets.hold(step('swap-rec', 2), 20_000n, nowMs + HOUR, nowMs);
    expect(held.address).toBe(walletB);

    // Another step naming it: refused, in the caller's transaction, which then writes nothing.
    await expect(
      dataSource.transaction((manager) =>
        feeWallets.record(manager, transactionOf('swap-other', 0, held, 'tx-thief'), nowMs),
      ),
    ).rejects.toMatchObject({ code: 'SPONSORSHIP_UNAVAILABLE' });

    const tx = transactionOf('swap-rec', 2, held, 'tx-rec');
    const id = await dataSource.transaction((manager) => feeWallets.record(manager, tx, nowMs + 5));
    const row = await dataSource.manager.findOneByOrFail(SponsoredTransactionEntity, { id });
    expect(row).toMatchObject({
      chain: CHAIN,
      relayer: walletB,
      nonce: null,
      purpose: 'bitcoin-transaction',
      swapId: 'swap-rec',
      stepIndex: 2,
      owner: 'key-1',
      to: tx.wallet,
      data: tx.rawTx,
      txHash: tx.txid,
      value: 0n,
      gasLimit: 1_234n,
      maxFeePerGas: 1n,
      status: 'pending',
    });
    const [hold] = (await dataSource.query(
      `SELECT "spent_by_txid" FROM "${schema}"."bitcoin_fee_inputs" WHERE "txid" = $1 AND "vout" = $2`,
      [held.txid, held.vout],
    )) as Array<{ spent_by_txid: string }>;
    expect(hold.spent_by_txid).toBe(tx.txid);
    expect(
      await dataSource.manager.countBy(SponsoredTransactionEntity, {
        purpose: 'bitcoin-transaction',
        swapId: 'swap-other',
      }),
    ).toBe(0);

    // The budget counts it at its fee in sats (today: the row's created_at is the database's clock).
    const budget = new SponsorshipBudget(
      relayingRepositoriesOf(dataSource).transactions,
      new SponsorshipBudgetLimits(10_000n),
      new SystemClock(),
    );
    expect(await budget.spentToday('key-1', CHAIN)).toBe(1_234n);
    await expect(budget.check('key-1', CHAIN, 8_767n)).rejects.toMatchObject({
      code: 'SPONSORSHIP_BUDGET_EXHAUSTED',
    });
  });
});

describe('RelayedTransactionTracker on Bitcoin rows', () => {
  const trackerOf = () => {
    const pool = new RelayerPool(new RelayerKeySet(), chains, new WeiByChain(0n));
    const policy = {
      pollMs: 100,
      stuckAfterMs: 1_000,
      feeBumpPercent: 25,
      batchSize: 20,
      leaseMs: 30_000,
      balanceRefreshMs: 10_000,
      reconcileMs: HOUR,
    };
    const relayers = relayersOn(dataSource, chains, pool, {} as never, now);
    const rows = new TrackedRows(relayingRepositoriesOf(dataSource).transactions, policy, now);
    return new RelayedTransactionTracker(rows, [
      new EvmRelayedTracking(chains, pool, relayers, rows),
      new BitcoinSettlement(rows, feeWallets),
    ]);
  };

  it('settles a mined one at its fee, and one the chain does not know after the payload expired as lost, freeing its fee input', async () => {
    stub.utxos.set(walletA, [
      { txid: txidOf('t-1'), vout: 0, value: 300_000, confirmed: true },
      { txid: txidOf('t-2'), vout: 0, value: 310_000, confirmed: true },
    ]);
    const expiry = nowMs + 60_000;
    const minedInput = await feeWallets.hold(step('swap-mined'), 10_000n, expiry, nowMs);
    const lostInput = await feeWallets.hold(step('swap-lost'), 10_000n, expiry, nowMs);
    const mined = transactionOf('swap-mined', 0, minedInput, 'tx-mined');
    const lost = transactionOf('swap-lost', 0, lostInput, 'tx-lost');
    const [minedId, lostId] = await dataSource.transaction(async (manager) => [
      await feeWallets.record(manager, mined, nowMs),
      await feeWallets.record(manager, lost, nowMs),
    ]);
    const tracker = trackerOf();

    // In the mempool, and unknown before expiry: both stay pending.
    stub.transactions.set(mined.txid, { confirmed: false });
    nowMs += 1_000;
    await tracker.runOnce();
    for (const id of [minedId, lostId]) {
      expect(await dataSource.manager.findOneByOrFail(SponsoredTransactionEntity, { id })).toMatchObject({
        status: 'pending',
      });
    }

    stub.transactions.set(mined.txid, { confirmed: true, blockTime: 1_800_000_100 });
    nowMs = expiry + 1;
    await tracker.runOnce();
    expect(
      await dataSource.manager.findOneByOrFail(SponsoredTransactionEntity, { id: minedId }),
    ).toMatchObject({
      status: 'confirmed',
      blockNumber: 102,
      gasUsed: 1_234n,
      effectiveGasPrice: 1n,
      costWei: 1_234n,
      minedAtMs: 1_800_000_100_000,
    });
    expect(
      await dataSource.manager.findOneByOrFail(SponsoredTransactionEntity, { id: lostId }),
    ).toMatchObject({
      status: 'lost',
      costWei: 0n,
      failureCode: 'RELAY_LOST',
    });
    // The lost one's fee input is free again; the mined one's never is.
    expect(await feeWallets.hold(step('swap-next'), 10_000n, nowMs + HOUR, nowMs)).toEqual(lostInput);
    await expect(feeWallets.hold(step('swap-after'), 10_000n, nowMs + HOUR, nowMs)).rejects.toMatchObject({
      code: 'SPONSORSHIP_UNAVAILABLE',
    });
  });
});

function transactionOf(
  swapId: string,
  stepIndex: number,
  input: { txid: string; vout: number; address: string },
  label: string,
): SponsoredBitcoinTransaction {
  return {
    chain: CHAIN,
    feeWallet: input.address,
    wallet: addressOf(keyOf(0x55)),
    swapId,
    stepIndex,
    owner: 'key-1',
    txid: txidOf(label),
    rawTx: `02000000${txidOf(`${label}-raw`)}`,
    feeSats: 1_234n,
    feeInput: { txid: input.txid, vout: input.vout },
  };
}
