import { Logger } from '@nestjs/common';
import { Clock, metricsRegistry } from '@swapgw/runtime';
import { waitFor } from '@swapgw/testing';
import { HDNodeWallet, Wallet } from 'ethers';
import { DataSource, FindOptionsWhere } from 'typeorm';
import { ETH, RelayingNode, RelayingTestBench } from '../../../test/relaying-test-bench';
import { TestChain } from '../../../test/signer-test-chain';
import { RelayedTrackingPolicy } from '../../sponsorship/tracking/relayed-tracking-policy';
import { RelayedCall, RelayersPolicy } from './relayers';
import { SponsoredTransactionEntity } from '../../sponsorship/sponsored-transaction.entity';
import { SponsorshipBudget } from '../../sponsorship/sponsorship-budget';
import { SponsoredTransactionsRepository } from '../../sponsorship/sponsored-transactions.repository';
import { SponsorshipBudgetLimits } from '../../sponsorship/wei-settings';

// Fault tests of the relayers against a real anvil and PostgreSQL (issue: relayers that cannot be
// wedged or bled). Each test has sponsored transactions in flight when the fault strikes, and ends
// with every one of them settled (confirmed, or an end with a reason), none paid twice, the ledger
// equal to the relayers' balance drop, and the ledger's next nonce equal to the chain's.
//
// One chain for the file; each test uses relayer accounts of its own, and the chain reset runs last.

const CHAIN = 'relay-fault-a';
const TRACKING: RelayedTrackingPolicy = {
  pollMs: 50,
  stuckAfterMs: 1_000,
  feeBumpPercent: 25,
  batchSize: 50,
  leaseMs: 30_000,
  balanceRefreshMs: 0,
  reconcileMs: 0,
};
let bench: RelayingTestBench;
let chain: TestChain;
let schema: string;

/** A clock the tests move forward past the stuck delay. */
let skewMs = 0;
const clock: Clock = { nowMs: () => Date.now() + skewMs };

type Instance = RelayingNode;

function instance(
  wallets: HDNodeWallet[],
  reconcile: Partial<NonNullable<RelayersPolicy['reconcile']>> = {},
): Promise<Instance> {
  return bench.node(wallets, {
    now: clock,
    policy: {
      reconcile: { reorgDepthBlocks: 64, resendLostWithinMs: 3_600_000, maxFillsPerPass: 64, ...reconcile },
    },
  });
}

function gasDrop(owner: string, overrides: Partial<RelayedCall> = {}): RelayedCall {
  return {
    chain: CHAIN,
    to: Wallet.createRandom().address,
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
const mining = async (on: boolean) => {
  await rpc('evm_setAutomine', [on]);
  if (on) await rpc('evm_mine');
};

const ledger = (ds: DataSource, where: FindOptionsWhere<SponsoredTransactionEntity> = {}) =>
  bench.ledger(ds, where);

/** Runs the tracker (moving the clock past the stuck delay each pass) until no row of `relayer` is pending. */
async function settle(node: Instance, relayer: string): Promise<SponsoredTransactionEntity[]> {
  return waitFor(
    async () => {
      skewMs += TRACKING.stuckAfterMs;
      await node.tracker.runOnce();
      const rows = await ledger(node.dataSource, { relayer });
      return rows.every((r) => r.status !== 'pending') ? rows : undefined;
    },
    { timeoutMs: 30_000, intervalMs: 50, description: `sponsored transactions of ${relayer} settled` },
  );
}

/** Read fresh (ethers' provider answers a repeated read within 250 ms from its own cache). */
const balanceOf = async (address: string) =>
  BigInt((await rpc('eth_getBalance', [address, 'latest'])) as string);
/** The test chain funds accounts 0-4 only (and a reset takes back what was set): these get 100 ETH. */
const fund = (wallets: HDNodeWallet[]) =>
  Promise.all(wallets.map((w) => rpc('anvil_setBalance', [w.address, `0x${(100n * ETH).toString(16)}`])));
const costOf = (rows: SponsoredTransactionEntity[]) => rows.reduce((sum, r) => sum + (r.costWei ?? 0n), 0n);

async function nextNonceOf(ds: DataSource, address: string): Promise<number> {
  const [row] = (await ds.query(
    `SELECT "next_nonce" FROM "${schema}"."relayer_accounts" WHERE "chain" = $1 AND "address" = $2`,
    [CHAIN, address],
  )) as Array<{ next_nonce: string }>;
  return Number(row.next_nonce);
}

/** The ledger and the chain agree: the ledger's next nonce is the chain's count, nothing pending. */
async function expectInStep(ds: DataSource, address: string): Promise<void> {
  const onChain = await nonceCount(address, 'latest');
  expect(await nonceCount(address, 'pending')).toBe(onChain);
  expect(await nextNonceOf(ds, address)).toBe(onChain);
}

/** Read fresh, as balanceOf. */
async function nonceCount(address: string, blockTag: 'latest' | 'pending'): Promise<number> {
  return Number((await rpc('eth_getTransactionCount', [address, blockTag])) as string);
}

beforeAll(async () => {
  Logger.overrideLogger(['error']);
  bench = await RelayingTestBench.start(CHAIN, TRACKING);
  ({ chain, schema } = bench);
}, 90_000);

afterEach(async () => {
  await rpc('evm_setAutomine', [true]);
});

afterAll(async () => {
  Logger.overrideLogger(['log', 'error', 'warn', 'debug', 'verbose']);
  await bench?.stop();
});

describe('relayers under faults', () => {
  it('a pending transaction the node dropped from its pool is sent again, the same transaction, and the one behind it follows', async () => {
    const relayer = chain.wallet(1);
    const node = await instance([relayer]);
    const before = await balanceOf(relayer.address);
    await mining(false);
    const first = await node.relayers.send(gasDrop('key-dropped'));
    const second = await node.relayers.send(gasDrop('key-dropped'));
    expect(second.nonce).toBe(first.nonce + 1);
    await rpc('anvil_dropTransaction', [first.txHash]);
    expect(await chain.provider.getTransaction(first.txHash)).toBeNull();

    // The tracker (its reconciliation, or the check past the stuck delay) sends it again, and the
    // one behind it that the node dropped with it, each unchanged.
    skewMs += TRACKING.stuckAfterMs;
    await node.tracker.runOnce();
    await mining(true);
    const rows = await settle(node, relayer.address);

    expect(rows.map((r) => [r.nonce, r.status])).toEqual([
      [first.nonce, 'confirmed'],
      [second.nonce, 'confirmed'],
    ]);
    // The very transactions first sent (anvil may not show a re-sent one by hash until it is mined,
    // and the tracker then raises its fees: the mined one is an attempt at the same nonce).
    expect(rows.map((r) => r.attempts[0].hash)).toEqual([first.txHash, second.txHash]);
    for (const row of rows) {
      const receipt = (await chain.provider.getTransactionReceipt(row.txHash))!;
      expect(receipt.from).toBe(relayer.address);
      expect(row.attempts.map((a) => a.hash)).toContain(receipt.hash);
    }
    expect(before - (await balanceOf(relayer.address))).toBe(costOf(rows));
    await expectInStep(node.dataSource, relayer.address);
    expect(await metricsRegistry().metrics()).toMatch(
      new RegExp(`swapgw_relayer_healing_total\\{chain="${CHAIN}",action="resent"\\} [1-9]`),
    );
  });

  it("a relayer's nonce consumed by another sender: the pending call is re-issued at a fresh nonce, and later sends follow the chain", async () => {
    const relayer = chain.wallet(2);
    const node = await instance([relayer]);
    const before = await balanceOf(relayer.address);
    await mining(false);
    const sent = await node.relayers.send(gasDrop('key-taken'));
    // Another tool with the same key replaces it in the pool (higher fees, same nonce) and is mined.
    const fees = await chain.provider.getFeeData();
    const foreign = await relayer.sendTransaction({
      nonce: sent.nonce,
      to: Wallet.createRandom().address,
      value: 7n,
      maxFeePerGas: fees.maxFeePerGas! * 3n,
      maxPriorityFeePerGas: fees.maxPriorityFeePerGas! * 3n,
      gasLimit: 21_000n,
    });
    await mining(true);
    const foreignReceipt = (await foreign.wait())!;
    // And it sends one more while nothing of ours is pending: the ledger is behind the chain.
    const foreign2 = await relayer.sendTransaction({ to: Wallet.createRandom().address, value: 5n });
    const foreign2Receipt = (await foreign2.wait())!;

    const rows = await settle(node, relayer.address);
    expect(rows).toHaveLength(1);
    const [row] = rows;
    expect(row.status).toBe('confirmed');
    expect(row.nonce).toBeGreaterThan(sent.nonce);
    expect(row.attempts.map((a) => a.nonce)).toEqual([sent.nonce, row.nonce]);
    expect((await chain.provider.getTransaction(row.txHash))!.nonce).toBe(row.nonce);
    expect(await chain.provider.getTransactionReceipt(sent.txHash)).toBeNull();

    // A new send after the other tool's: at the chain's nonce, no gap, mined.
    const next = await node.relayers.send(gasDrop('key-taken'));
    expect(next.nonce).toBe((await nonceCount(relayer.address, 'latest')) - 1);
    const all = await settle(node, relayer.address);
    expect(all.map((r) => r.status)).toEqual(['confirmed', 'confirmed']);
    const foreignCost =
      foreignReceipt.gasUsed * foreignReceipt.gasPrice +
      7n +
      foreign2Receipt.gasUsed * foreign2Receipt.gasPrice +
      5n;
    expect(before - (await balanceOf(relayer.address))).toBe(costOf(all) + foreignCost);
    await expectInStep(node.dataSource, relayer.address);
  });

  it('a base fee spike beyond the ceiling: bumps stop at the ceiling, a cancel takes the nonce, and when the fee comes back down the cancel is mined (RELAY_FEE_CEILING)', async () => {
    const relayer = chain.wallet(3);
    const node = await instance([relayer]);
    const budget = new SponsorshipBudget(
      new SponsoredTransactionsRepository(node.dataSource),
      new SponsorshipBudgetLimits(ETH, new Map()),
      clock,
    );
    const before = await balanceOf(relayer.address);
    await mining(false);
    const sent = await node.relayers.send(gasDrop('key-spike', { value: 10n ** 15n }));
    const [first] = await ledger(node.dataSource, { id: sent.id });
    expect(first.maxFeeCeiling).toBe(first.maxFeePerGas * 3n);

    // The base fee jumps to 1,000 times what the transaction bid, and stays there.
    const spike = first.maxFeePerGas * 1_000n;
    const mineAtSpike = async () => {
      await rpc('anvil_setNextBlockBaseFeePerGas', [`0x${spike.toString(16)}`]);
      await rpc('evm_mine');
    };
    await mineAtSpike();
    for (let pass = 0; pass < 10; pass++) {
      skewMs += TRACKING.stuckAfterMs;
      await node.tracker.runOnce();
      await mineAtSpike();
    }
    const [held] = await ledger(node.dataSource, { id: sent.id });
    expect(held.status).toBe('pending');
    // Never above the ceiling, whatever the node suggested; the last attempt is the cancel, at the ceiling.
    for (const attempt of held.attempts)
      expect(BigInt(attempt.maxFeePerGas)).toBeLessThanOrEqual(held.maxFeeCeiling!);
    const cancel = held.attempts[held.attempts.length - 1];
    expect(cancel).toMatchObject({ cancel: true, maxFeePerGas: held.maxFeeCeiling!.toString() });
    expect(held.attempts.filter((a) => a.cancel)).toHaveLength(1);
    // The budget holds it at the most it can still cost: the ceiling, not a runaway fee.
    expect(await budget.spentToday('key-spike', CHAIN)).toBe(
      held.gasLimit * held.maxFeeCeiling! + held.value,
    );

    // Back down: the cancel is mined, the gas drop's value never moved.
    await rpc('anvil_setNextBlockBaseFeePerGas', ['0x1']);
    await mining(true);
    const [row] = await settle(node, relayer.address);
    expect(row).toMatchObject({ status: 'cancelled', failureCode: 'RELAY_FEE_CEILING', txHash: cancel.hash });
    expect(row.failureReason).toContain('fee ceiling');
    const receipt = (await chain.provider.getTransactionReceipt(cancel.hash))!;
    expect(receipt.to).toBe(relayer.address);
    expect(row.costWei).toBe(receipt.gasUsed * receipt.gasPrice);
    expect(before - (await balanceOf(relayer.address))).toBe(row.costWei);
    expect(await budget.spentToday('key-spike', CHAIN)).toBe(row.costWei);
    await expectInStep(node.dataSource, relayer.address);
  });

  it('a base fee spike that comes back down before the cancel: the replacement under the ceiling is mined', async () => {
    const relayer = chain.wallet(4);
    const node = await instance([relayer]);
    const before = await balanceOf(relayer.address);
    await mining(false);
    const sent = await node.relayers.send(gasDrop('key-spike-short'));
    const [first] = await ledger(node.dataSource, { id: sent.id });
    const spikeBlock = async () => {
      await rpc('anvil_setNextBlockBaseFeePerGas', [`0x${(first.maxFeePerGas * 100n).toString(16)}`]);
      await rpc('evm_mine');
    };
    await spikeBlock();
    skewMs += TRACKING.stuckAfterMs;
    await node.tracker.runOnce(); // found stuck: the head noted
    await spikeBlock();
    skewMs += TRACKING.stuckAfterMs;
    await node.tracker.runOnce(); // a block passed it by: one replacement, capped under the ceiling
    const [replaced] = await ledger(node.dataSource, { id: sent.id });
    expect(replaced.attempts).toHaveLength(2);
    expect(replaced.attempts[1].cancel).toBeUndefined();
    expect(replaced.maxFeePerGas).toBeGreaterThan(first.maxFeePerGas);
    expect(replaced.maxFeePerGas).toBeLessThanOrEqual((first.maxFeeCeiling! * 100n) / 125n);

    await rpc('anvil_setNextBlockBaseFeePerGas', ['0x1']);
    await mining(true);
    const [row] = await settle(node, relayer.address);
    expect(row).toMatchObject({ status: 'confirmed', txHash: replaced.txHash, failureCode: null });
    expect(before - (await balanceOf(relayer.address))).toBe(row.costWei);
  });

  it('a chain producing no blocks (mining paused) is no fee problem: nothing is replaced, and the transaction first sent is mined', async () => {
    const relayer = chain.wallet(4);
    const node = await instance([relayer]);
    await mining(false);
    const sent = await node.relayers.send(gasDrop('key-halt'));
    for (let pass = 0; pass < 5; pass++) {
      skewMs += TRACKING.stuckAfterMs;
      await node.tracker.runOnce();
    }
    const [waiting] = await ledger(node.dataSource, { id: sent.id });
    expect(waiting.attempts.map((a) => a.hash)).toEqual([sent.txHash]);
    await mining(true);
    const row = (await settle(node, relayer.address)).find((r) => r.id === sent.id);
    expect(row).toMatchObject({ status: 'confirmed', txHash: sent.txHash });
    await expectInStep(node.dataSource, relayer.address);
  });

  it('a chain reset under a running signer: recent mined transactions are sent again on the new chain, pending ones follow, and new sends are not wedged', async () => {
    const relayers = [chain.wallet(6), chain.wallet(7)];
    await fund(relayers);
    const recent = await instance(relayers);
    const mined = await Promise.all([0, 1, 2].map(() => recent.relayers.send(gasDrop('key-reset'))));
    await settle(recent, relayers[0].address);
    await settle(recent, relayers[1].address);
    await mining(false);
    const inFlight = await recent.relayers.send(gasDrop('key-reset'));

    await rpc('anvil_reset');
    await rpc('evm_setAutomine', [true]);
    await fund(relayers);
    const genesis = await Promise.all(relayers.map((w) => balanceOf(w.address)));
    expect(await nonceCount(relayers[0].address, 'latest')).toBe(0);

    // A send right after the reset: the ledger is ahead of the chain; it is reconciled first.
    const after = await recent.relayers.send(gasDrop('key-reset'));
    const rows = [
      ...(await settle(recent, relayers[0].address)),
      ...(await settle(recent, relayers[1].address)),
    ];
    const ours = new Set([...mined, inFlight, after].map((s) => s.id));
    expect(rows.filter((r) => ours.has(r.id)).map((r) => r.status)).toEqual(Array(5).fill('confirmed'));
    // Every ledger transaction is on the new chain, once: its receipt is there.
    for (const row of rows) {
      expect(await chain.provider.getTransactionReceipt(row.txHash)).not.toBeNull();
    }
    const spent =
      genesis[0] +
      genesis[1] -
      (await balanceOf(relayers[0].address)) -
      (await balanceOf(relayers[1].address));
    expect(costOf(rows)).toBe(spent);
    for (const w of relayers) await expectInStep(recent.dataSource, w.address);
    expect(await metricsRegistry().metrics()).toMatch(
      new RegExp(`swapgw_relayer_healing_total\\{chain="${CHAIN}",action="repended"\\} [1-9]`),
    );
  });

  it('a chain reset with the database kept (npm start again): old transactions are lost, nothing counted as paid, and sends start at the chain nonce', async () => {
    const relayer = chain.wallet(8);
    await fund([relayer]);
    // Everything older than the resend window is history of a chain that is gone.
    const node = await instance([relayer], { resendLostWithinMs: 0 });
    for (let i = 0; i < 4; i++) await node.relayers.send(gasDrop('key-restart'));
    const old = await settle(node, relayer.address);
    expect(await nextNonceOf(node.dataSource, relayer.address)).toBeGreaterThanOrEqual(4);

    await rpc('anvil_reset');
    await fund([relayer]);
    const genesis = await balanceOf(relayer.address);
    const fresh = await Promise.all([0, 1, 2].map(() => node.relayers.send(gasDrop('key-restart'))));
    expect(fresh.map((s) => s.nonce).sort()).toEqual([0, 1, 2]);
    const rows = await settle(node, relayer.address);
    const byId = new Map(rows.map((r) => [r.id, r]));
    for (const row of old) {
      expect(byId.get(row.id)).toMatchObject({ status: 'lost', failureCode: 'RELAY_LOST', costWei: 0n });
    }
    for (const sent of fresh) expect(byId.get(sent.id)!.status).toBe('confirmed');
    expect(genesis - (await balanceOf(relayer.address))).toBe(costOf(rows));
    await expectInStep(node.dataSource, relayer.address);
  });

  it('the wedge of a restart with the database kept: a pending transaction above nonces the new chain never saw gets the gap filled under it and is mined', async () => {
    const relayer = chain.wallet(9);
    await fund([relayer]);
    const node = await instance([relayer], { resendLostWithinMs: 0 });
    for (let i = 0; i < 3; i++) await node.relayers.send(gasDrop('key-wedge'));
    await settle(node, relayer.address);
    await mining(false);
    const waiting = await node.relayers.send(gasDrop('key-wedge'));
    expect(waiting.nonce).toBe(3);

    await rpc('anvil_reset');
    await rpc('evm_setAutomine', [true]);
    await fund([relayer]);
    const genesis = await balanceOf(relayer.address);
    const rows = await settle(node, relayer.address);
    const fills = rows.filter((r) => r.purpose === 'nonce-fill');
    expect(fills.map((r) => [r.nonce, r.status, r.to, r.value])).toEqual([
      [0, 'confirmed', relayer.address, 0n],
      [1, 'confirmed', relayer.address, 0n],
      [2, 'confirmed', relayer.address, 0n],
    ]);
    expect(fills.every((r) => r.owner === null && r.swapId === null)).toBe(true);
    expect(rows.find((r) => r.id === waiting.id)).toMatchObject({ status: 'confirmed', nonce: 3 });
    expect(rows.filter((r) => r.status === 'lost')).toHaveLength(3);
    expect(genesis - (await balanceOf(relayer.address))).toBe(costOf(rows));
    await expectInStep(node.dataSource, relayer.address);
    expect(await metricsRegistry().metrics()).toMatch(
      new RegExp(`swapgw_relayer_healing_total\\{chain="${CHAIN}",action="filled"\\} 3`),
    );
  });
});
