import { Logger } from '@nestjs/common';
import { CodedError, httpStatusOf } from '@swapgw/contracts';
import { Clock, metricsRegistry, SystemClock } from '@swapgw/runtime';
import { waitFor } from '@swapgw/testing';
import { HDNodeWallet, Interface, Wallet } from 'ethers';
import { DataSource, FindOptionsWhere } from 'typeorm';
import {
  ETH,
  RelayingNode,
  RelayingTestBench,
  TEST_RELAYERS_POLICY,
} from '../../../test/relaying-test-bench';
import { TestChain } from '../../../test/signer-test-chain';
import { RelayedTrackingPolicy } from '../../sponsorship/tracking/relayed-tracking-policy';
import { RelayedTransactionTracker } from '../../sponsorship/tracking/relayed-transaction-tracker';
import { RelayerGasSponsor } from '../relayer-gas-sponsor';
import { RelayerKeySet } from '../../sponsorship/relayer-keys';
import { RelayerPool } from './relayer-pool';
import { RelayedCall, RelayersPolicy } from './relayers';
import { SponsoredTransactionEntity } from '../../sponsorship/sponsored-transaction.entity';
import { SponsoredTransactions } from '../../sponsorship/sponsored-transactions';
import { SponsorshipBudget } from '../../sponsorship/sponsorship-budget';
import { relayersOn, relayingRepositoriesOf } from '../../../test/relaying-repositories';
import { SponsorshipBudgetLimits, WeiByChain } from '../../sponsorship/wei-settings';

// Real anvil and PostgreSQL: two Relayers on separate DataSources (two signer-surface instances)
// sharing four relayer accounts, the tracker over their ledger, a stuck transaction replaced,
// the budget, and a crash between broadcast and commit.

const CHAIN = 'relay-it-a';
const TRACKING: RelayedTrackingPolicy = {
  pollMs: 100,
  stuckAfterMs: 60_000,
  feeBumpPercent: 25,
  batchSize: 50,
  leaseMs: 30_000,
  balanceRefreshMs: 0,
  reconcileMs: 0,
};
const POLICY = TEST_RELAYERS_POLICY;

let bench: RelayingTestBench;
let chain: TestChain;
let relayerWallets: HDNodeWallet[];
let schema: string;

/** One signer-surface's relaying: its own DataSource, providers and pool over `wallets`. */
function instance(
  wallets: HDNodeWallet[],
  tracking: Partial<RelayedTrackingPolicy> = {},
  now: Clock = new SystemClock(),
  policy: Partial<RelayersPolicy> = {},
): Promise<RelayingNode> {
  return bench.node(wallets, { tracking, now, policy });
}

const recipient = () => Wallet.createRandom().address;

function gasDrop(owner: string, overrides: Partial<RelayedCall> = {}): RelayedCall {
  return {
    chain: CHAIN,
    to: recipient(),
    data: '0x',
    value: 1_000n,
    purpose: 'gas-drop',
    swapId: `swp-${owner}`,
    stepIndex: 1,
    owner,
    ...overrides,
  };
}

const rpc = (method: string, params: unknown[] = []) => bench.rpc(method, params);

const ledger = (ds: DataSource, where: FindOptionsWhere<SponsoredTransactionEntity> = {}) =>
  bench.ledger(ds, where);

/** Runs the trackers until no row of `owner` is pending. */
async function settle(
  trackers: RelayedTransactionTracker[],
  ds: DataSource,
  owner: string,
): Promise<SponsoredTransactionEntity[]> {
  return waitFor(
    async () => {
      await Promise.all(trackers.map((t) => t.runOnce()));
      const rows = await ledger(ds, { owner });
      return rows.every((r) => r.status !== 'pending') ? rows : undefined;
    },
    { timeoutMs: 30_000, description: `sponsored transactions of ${owner} settled` },
  );
}

async function codedErrorOf(promise: Promise<unknown>): Promise<CodedError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof CodedError) return error;
    throw error;
  }
  throw new Error('expected a CodedError');
}

const balancesOf = (wallets: HDNodeWallet[]) =>
  Promise.all(wallets.map((w) => chain.provider.getBalance(w.address)));
const sum = (values: bigint[]) => values.reduce((a, b) => a + b, 0n);

beforeAll(async () => {
  Logger.overrideLogger(['error', 'warn']);
  bench = await RelayingTestBench.start(CHAIN, TRACKING);
  ({ chain, schema } = bench);
  relayerWallets = [1, 2, 3, 4].map((i) => chain.wallet(i));
}, 90_000);

afterAll(async () => {
  Logger.overrideLogger(['log', 'error', 'warn', 'debug', 'verbose']);
  await bench?.stop();
});

describe('relayers', () => {
  it('two instances sending 15 transactions each at once use every nonce once, without a gap; the ledger cost is the balance change', async () => {
    const [a, b] = [await instance(relayerWallets), await instance(relayerWallets)];
    const before = await balancesOf(relayerWallets);
    const owner = 'key-concurrent';
    const fixture = new Interface(chain.fixtureAbi as never);
    // One of the 30 reverts on chain (sent with its own gas limit: its estimate would refuse it).
    const reverting = gasDrop(owner, {
      to: chain.fixtureAddress,
      data: fixture.encodeFunctionData('alwaysFails'),
      value: 0n,
      purpose: 'intent',
      gasLimit: 60_000n,
    });
    const calls = [
      ...Array.from({ length: 15 }, (_, i) => (i === 7 ? reverting : gasDrop(owner))),
      ...Array.from({ length: 15 }, () => gasDrop(owner)),
    ];
    const sent = await Promise.all(calls.map((call, i) => (i < 15 ? a : b).relayers.send(call)));

    expect(new Set(sent.map((s) => s.id)).size).toBe(30);
    expect(new Set(sent.map((s) => s.txHash)).size).toBe(30);
    const rows = await settle([a.tracker, b.tracker], a.dataSource, owner);
    expect(rows).toHaveLength(30);

    for (const wallet of relayerWallets) {
      const nonces = rows.filter((r) => r.relayer === wallet.address).map((r) => r.nonce);
      // Fresh accounts: 0, 1, 2, ... with nothing skipped and nothing twice, all mined.
      expect(nonces).toEqual(nonces.map((_, i) => i));
      expect(await chain.provider.getTransactionCount(wallet.address, 'latest')).toBe(nonces.length);
    }
    expect(new Set(rows.map((r) => r.relayer)).size).toBe(4);
    expect(rows.filter((r) => r.status === 'failed').map((r) => r.txHash)).toEqual([sent[7].txHash]);
    expect(rows.filter((r) => r.status === 'confirmed')).toHaveLength(29);
    for (const row of rows) {
      const receipt = (await chain.provider.getTransactionReceipt(row.txHash))!;
      expect(row).toMatchObject({
        blockNumber: receipt.blockNumber,
        gasUsed: receipt.gasUsed,
        effectiveGasPrice: receipt.gasPrice,
      });
      expect(row.costWei).toBe(
        receipt.gasUsed * receipt.gasPrice + (row.status === 'confirmed' ? row.value : 0n),
      );
      expect(row.minedAtMs).toBe((await chain.provider.getBlock(receipt.blockNumber))!.timestamp * 1000);
    }

    const spent = sum(before) - sum(await balancesOf(relayerWallets));
    expect(sum(rows.map((r) => r.costWei!))).toBe(spent);

    const metrics = await metricsRegistry().metrics();
    expect(metrics).toMatch(
      new RegExp(
        `swapgw_sponsored_transactions_total\\{chain="${CHAIN}",purpose="gas-drop",status="confirmed"\\} 29`,
      ),
    );
    expect(metrics).toMatch(
      new RegExp(
        `swapgw_relayer_balance_wei\\{chain="${CHAIN}",address="${relayerWallets[0].address}"\\} \\d`,
      ),
    );
    expect(metrics).toContain(
      `swapgw_sponsored_gas_spent_by_owner_wei_total{chain="${CHAIN}",owner="${owner}"}`,
    );
    // Each balance has its minimum beside it (what the balance alerts compare it with).
    expect(metrics).toMatch(
      new RegExp(
        `swapgw_relayer_min_balance_wei\\{chain="${CHAIN}",address="${relayerWallets[0].address}"\\} [1-9]`,
      ),
    );
    // In flight: what the ledger holds pending on the chain at the tracker's last pass.
    await a.tracker.runOnce();
    const pending = (await ledger(a.dataSource, { chain: CHAIN, status: 'pending' })).length;
    expect(await metricsRegistry().metrics()).toContain(
      `swapgw_relayer_pending_transactions{chain="${CHAIN}"} ${pending}`,
    );
  });

  it('rolls back a broadcast the node refuses: no ledger row, and the nonce is used by the next send', async () => {
    const single = await instance([relayerWallets[0]]);
    const address = relayerWallets[0].address;
    const nonceBefore = await chain.provider.getTransactionCount(address, 'pending');
    const refused = await codedErrorOf(single.relayers.send(gasDrop('key-refused', { gasLimit: 1_000n })));
    expect(refused.code).toBe('TX_REQUEST_INVALID');
    expect(await ledger(single.dataSource, { owner: 'key-refused' })).toEqual([]);

    const next = await single.relayers.send(gasDrop('key-refused'));
    expect(next.nonce).toBe(nonceBefore);
  });

  it('replaces a stuck transaction with higher fees under the same nonce; the replacement is the one mined and recorded', async () => {
    let skewMs = 0;
    const clock: Clock = { nowMs: () => Date.now() + skewMs };
    const node = await instance([relayerWallets[1]], { stuckAfterMs: 1_000 }, clock);
    const owner = 'key-stuck';
    await rpc('evm_setAutomine', [false]);
    await rpc('evm_setIntervalMining', [0]);
    try {
      const sent = await node.relayers.send(gasDrop(owner));
      await node.tracker.runOnce();
      const [waiting] = await ledger(node.dataSource, { owner });
      expect(waiting).toMatchObject({ status: 'pending', txHash: sent.txHash });
      expect(waiting.attempts).toHaveLength(1);

      skewMs = 1_500; // past RELAYER_STUCK_AFTER_MS since the send
      await node.tracker.runOnce();
      // No block was mined since: the chain is not producing blocks, fees are not the problem.
      expect((await ledger(node.dataSource, { owner }))[0].attempts).toHaveLength(1);

      // A block that leaves it out (too small to hold it) passes it by: now it is stuck on its fees.
      const gasLimit = (await chain.provider.send('eth_getBlockByNumber', ['latest', false]))
        .gasLimit as string;
      await rpc('evm_setBlockGasLimit', ['0x7530']); // 30,000 gas
      await rpc('evm_mine');
      await rpc('evm_setBlockGasLimit', [gasLimit]);
      skewMs = 3_000;
      await node.tracker.runOnce();
      const [replaced] = await ledger(node.dataSource, { owner });
      expect(replaced.status).toBe('pending');
      expect(replaced.attempts.map((x) => x.hash)).toEqual([sent.txHash, replaced.txHash]);
      expect(replaced.txHash).not.toBe(sent.txHash);
      expect(replaced.maxFeePerGas * 100n).toBeGreaterThanOrEqual(waiting.maxFeePerGas * 125n);
      expect(replaced.maxPriorityFeePerGas * 100n).toBeGreaterThanOrEqual(
        waiting.maxPriorityFeePerGas * 125n,
      );
      const pooled = await chain.provider.getTransaction(replaced.txHash);
      expect(pooled).toMatchObject({ nonce: sent.nonce, from: relayerWallets[1].address });

      await rpc('evm_setAutomine', [true]);
      await rpc('evm_mine');
      const [mined] = await settle([node.tracker], node.dataSource, owner);
      expect(mined).toMatchObject({ status: 'confirmed', txHash: replaced.txHash, nonce: sent.nonce });
      expect(await chain.provider.getTransactionReceipt(sent.txHash)).toBeNull();
      expect((await chain.provider.getTransactionReceipt(replaced.txHash))!.status).toBe(1);

      const view = await new SponsoredTransactions(
        relayingRepositoriesOf(node.dataSource).transactions,
      ).lookup(sent.id);
      expect(view).toMatchObject({
        status: 'confirmed',
        txHash: replaced.txHash,
        hashes: [sent.txHash, replaced.txHash],
        mined: { txHash: replaced.txHash },
      });
      expect(
        await new SponsoredTransactions(relayingRepositoriesOf(node.dataSource).transactions).currentHash(
          sent.id,
        ),
      ).toBe(replaced.txHash);
      expect(await metricsRegistry().metrics()).toMatch(
        new RegExp(`swapgw_relayer_replacements_total\\{chain="${CHAIN}"\\} 1`),
      );
    } finally {
      await rpc('evm_setAutomine', [true]);
    }
  });

  it('refuses with SPONSORSHIP_BUDGET_EXHAUSTED (503) once the key has spent its day on the chain', async () => {
    const node = await instance(relayerWallets.slice(2));
    const ledgerReads = new SponsoredTransactions(relayingRepositoriesOf(node.dataSource).transactions);
    const smallLimit = 10n ** 15n; // 0.001 ETH
    const budget = new SponsorshipBudget(
      relayingRepositoriesOf(node.dataSource).transactions,
      new SponsorshipBudgetLimits(ETH, new Map([['key-small', new WeiByChain(smallLimit)]])),
      new SystemClock(),
    );
    const sponsor = new RelayerGasSponsor(node.relayers, budget, ledgerReads);

    await sponsor.admit('key-small', CHAIN, 10n ** 14n);
    const sent = await sponsor.send(
      gasDrop('key-small', { value: 9n * 10n ** 14n, swapId: 'swp-budget', stepIndex: 2 }),
    );
    expect(await sponsor.findSent('swp-budget', 2, 'gas-drop')).toEqual(sent);
    expect(await sponsor.findSent('swp-budget', 2, 'permit')).toBeNull();
    // Pending: counted at the most it can cost, so the day's budget is taken before it is mined.
    const exhausted = await codedErrorOf(sponsor.admit('key-small', CHAIN, 10n ** 14n));
    expect(exhausted.code).toBe('SPONSORSHIP_BUDGET_EXHAUSTED');
    expect(httpStatusOf(exhausted.code)).toBe(503);
    expect(exhausted.details).toMatchObject({ chain: CHAIN, budgetWei: smallLimit.toString() });

    await settle([node.tracker], node.dataSource, 'key-small');
    expect(await sponsor.status(sent.id)).toEqual({
      state: 'confirmed',
      hashes: [sent.txHash],
      minedHash: sent.txHash,
      failure: null,
    });
    const [row] = await ledger(node.dataSource, { owner: 'key-small' });
    expect(await budget.spentToday('key-small', CHAIN)).toBe(row.costWei);
    await expect(budget.check('key-small', CHAIN, smallLimit - row.costWei! + 1n)).rejects.toMatchObject({
      code: 'SPONSORSHIP_BUDGET_EXHAUSTED',
    });
    await budget.check('key-small', CHAIN, smallLimit - row.costWei!);
    // Another key, another chain: budgets of their own.
    await budget.check('key-other', CHAIN, ETH);
    expect(await budget.spentToday('key-small', 'devnet-b')).toBe(0n);
  });

  it('answers SPONSORSHIP_UNAVAILABLE when every relayer is under its minimum balance, or none is configured', async () => {
    const node = await instance(relayerWallets.slice(0, 2));
    const poor = new RelayerPool(
      new RelayerKeySet(new Map([[CHAIN, relayerWallets.slice(0, 2).map((w) => w.privateKey)]])),
      node.chains,
      new WeiByChain(10n ** 24n),
    );
    const relayers = relayersOn(node.dataSource, node.chains, poor, POLICY, new SystemClock());
    const unavailable = await codedErrorOf(relayers.send(gasDrop('key-poor')));
    expect(unavailable.code).toBe('SPONSORSHIP_UNAVAILABLE');
    expect(httpStatusOf(unavailable.code)).toBe(503);
    expect((await codedErrorOf(relayers.assertCanPay(CHAIN, 1n))).code).toBe('SPONSORSHIP_UNAVAILABLE');
    expect((await codedErrorOf(node.relayers.send(gasDrop('key-poor', { chain: 'devnet-b' })))).code).toBe(
      'SPONSORSHIP_UNAVAILABLE',
    );
    expect(await ledger(node.dataSource, { owner: 'key-poor' })).toEqual([]);
  });

  it('does not reuse a nonce broadcast by a send that crashed before its commit', async () => {
    const node = await instance([relayerWallets[3]]);
    const wallet = relayerWallets[3];
    await node.relayers.send(gasDrop('key-crash')); // the relayer row exists and is in use
    const table = `"${schema}"."relayer_accounts"`;

    // What a crash leaves: the row locked, a nonce taken and broadcast, the transaction rolled back.
    let orphanNonce = -1;
    const crash = node.dataSource.transaction(async (manager) => {
      const [row] = (await manager.query(
        `SELECT "next_nonce" FROM ${table} WHERE "chain" = $1 AND "address" = $2 FOR UPDATE`,
        [CHAIN, wallet.address],
      )) as Array<{ next_nonce: string }>;
      orphanNonce = Number(row.next_nonce);
      const fees = await chain.provider.getFeeData();
      const orphan = await wallet.signTransaction({
        type: 2,
        chainId: chain.chainId,
        nonce: orphanNonce,
        to: recipient(),
        value: 1n,
        gasLimit: 21_000n,
        maxFeePerGas: fees.maxFeePerGas,
        maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
      });
      await chain.provider.broadcastTransaction(orphan);
      throw new Error('crash before commit');
    });
    await expect(crash).rejects.toThrow('crash before commit');
    const [after] = (await node.dataSource.query(
      `SELECT "next_nonce" FROM ${table} WHERE "chain" = $1 AND "address" = $2`,
      [CHAIN, wallet.address],
    )) as Array<{ next_nonce: string }>;
    expect(Number(after.next_nonce)).toBe(orphanNonce); // the database never saw that nonce used

    const sent = await node.relayers.send(gasDrop('key-crash'));
    expect(sent.nonce).toBe(orphanNonce + 1);
    const rows = await settle([node.tracker], node.dataSource, 'key-crash');
    expect(rows.map((r) => [r.nonce, r.status])).toEqual([
      [orphanNonce - 1, 'confirmed'],
      [orphanNonce + 1, 'confirmed'],
    ]);
    expect(await chain.provider.getTransactionCount(wallet.address, 'latest')).toBe(orphanNonce + 2);
  });
});
