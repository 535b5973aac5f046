import { Logger } from '@nestjs/common';
import { SwapBuildRequest, Topics } from '@swapgw/contracts';
import { ManualClock } from '@swapgw/runtime';
import { FakeSwapChains, InMemorySwapRepository, plannerConfigOf } from '../../test/support/swap-fakes';
import {
  buildRequestFor,
  crossChainPlanFor,
  NOW_MS,
  OTHER_USER,
  planFor,
  ROUTER,
  USDC,
  USER,
} from '../../test/support/swap-fixtures';
import type { EventClaim } from '@swapgw/messaging';
import { SwapPlanner } from './swap-planner.service';

describe('SwapPlanner', () => {
  let store: InMemorySwapRepository;
  let clock: ManualClock;
  let builder: SwapPlanner;
  let swapIds = 0;
  const request = (plan = planFor('q1')): SwapBuildRequest => buildRequestFor(plan, `swap-${++swapIds}`);
  /** A build command, as the consumer applies it: inside a transaction of the store. */
  const command = (build: SwapBuildRequest) => store.transaction((tx) => builder.buildCommand(build, tx));

  beforeAll(() => Logger.overrideLogger(false)); // refusals and conflicts log; expected here
  afterAll(() => Logger.overrideLogger(['log', 'error', 'warn', 'debug', 'verbose']));

  beforeEach(() => {
    store = new InMemorySwapRepository();
    clock = new ManualClock(NOW_MS);
    builder = new SwapPlanner(
      store,
      new FakeSwapChains({ 'devnet-a': { evmChainId: 31337 } }),
      plannerConfigOf(),
      clock,
    );
  });

  describe('build (request-reply)', () => {
    it('stores the swap at step 1 with its steps and queues swap.created and step 1’s signing.prepare', async () => {
      const build = request();

      expect(await builder.build(build)).toEqual({
        swapId: build.swapId,
        status: 'planning',
        stepCount: 2,
        created: true,
      });

      expect(store.swap(build.swapId)).toMatchObject({
        owner: 'alice',
        status: 'planning',
        currentStep: 1,
        stepCount: 2,
        createdAtMs: NOW_MS,
        expiresAtMs: NOW_MS + 3600 * 1000,
      });
      expect(store.stepsOf(build.swapId).map((s) => [s.id, s.kind, s.status])).toEqual([
        [`${build.swapId}:1`, 'approve', 'building'],
        [`${build.swapId}:2`, 'swap', 'pending'],
      ]);
      const [created, prepare] = store.messagesOf(build.swapId);
      expect(store.messagesOf(build.swapId)).toHaveLength(2);
      expect(created).toMatchObject({ topic: Topics.swapEvents, type: 'swap.created' });
      expect(created.payload).toEqual({
        swapId: build.swapId,
        status: 'planning',
        owner: 'alice',
        quoteId: 'q1',
        routeId: 'r1',
        fromChain: 'devnet-a',
        toChain: 'devnet-a',
        userAddress: USER,
        stepCount: 2,
        createdAtMs: NOW_MS,
      });
      expect(prepare).toMatchObject({
        topic: Topics.signingCommands,
        type: 'signing.prepare',
        version: 2,
        aggregateId: build.swapId,
      });
      expect(prepare.payload).toMatchObject({
        stepId: `${build.swapId}:1`,
        stepIndex: 1,
        stepCount: 2,
        kind: 'approve',
        from: USER,
        step: { family: 'evm-transaction', approve: { token: USDC, spender: ROUTER, amount: '1500000' } },
      });
    });

    it('writes a build in one transaction: the swap with its steps, then its two messages', async () => {
      await builder.build(request());

      expect(store.transactions).toEqual([['insertSwap', 'enqueue']]);
    });

    it('answers a retried build with the same swap and writes nothing; another request on its id is a conflict', async () => {
      const build = request();
      await builder.build(build);

      expect(await builder.build(build)).toEqual({
        swapId: build.swapId,
        status: 'planning',
        stepCount: 2,
        created: false,
      });
      await expect(builder.build({ ...build, userAddress: OTHER_USER })).rejects.toMatchObject({
        code: 'IDEMPOTENCY_CONFLICT',
      });
      expect(store.transactions).toHaveLength(1);
      expect(store.messagesOf(build.swapId)).toHaveLength(2);
    });

    it('lets the first of two racing builds stand and answers the other as its replay', async () => {
      const build = request();

      const results = await Promise.all([builder.build(build), builder.build(build)]);

      expect(results.map((r) => r.created).sort()).toEqual([false, true]);
      expect(store.stepsOf(build.swapId)).toHaveLength(2);
      expect(store.messagesOf(build.swapId)).toHaveLength(2);
    });

    it('refuses an expired quote, another route and a chain without a signing surface, storing nothing', async () => {
      const expired = request(planFor('q-old', 'devnet-a', NOW_MS));
      const noSurface = request(planFor('q-eth', 'ethereum'));

      await expect(builder.build(expired)).rejects.toMatchObject({ code: 'QUOTE_EXPIRED' });
      await expect(builder.build({ ...request(), routeId: 'r9' })).rejects.toMatchObject({
        code: 'UNKNOWN_ROUTE',
      });
      await expect(builder.build(noSurface)).rejects.toMatchObject({
        code: 'SIGNING_SURFACE_UNAVAILABLE',
        details: { chains: ['ethereum'] },
      });
      expect(store.swaps.size).toBe(0);
      expect(store.transactions).toEqual([]);
    });
  });

  describe('buildCommand (swap.commands)', () => {
    it('builds the swap inside the command’s transaction', async () => {
      const build = request();

      await command(build);

      expect(store.swap(build.swapId)).toMatchObject({ status: 'planning', stepCount: 2 });
      expect(store.messagesOf(build.swapId).map((m) => m.type)).toEqual(['swap.created', 'signing.prepare']);
      expect(store.transactions).toEqual([['findSwap', 'insertSwap', 'enqueue']]);
    });

    it('records a refused build as a failed swap without steps: swap.created, then swap.failed with the refusal', async () => {
      const build = request(planFor('q-eth', 'ethereum'));

      await command(build);

      expect(store.swap(build.swapId)).toMatchObject({
        status: 'failed',
        stepCount: 0,
        failureReason: 'SIGNING_SURFACE_UNAVAILABLE',
        failureDetails: { chains: ['ethereum'], message: expect.stringContaining('ethereum') },
        expiresAtMs: NOW_MS,
      });
      expect(store.stepsOf(build.swapId)).toEqual([]);
      const [created, failed] = store.messagesOf(build.swapId);
      expect([created.type, failed.type]).toEqual(['swap.created', 'swap.failed']);
      expect(created.payload).toMatchObject({ status: 'failed', stepCount: 0 });
      expect(failed.payload).toEqual({
        swapId: build.swapId,
        status: 'failed',
        reason: 'SIGNING_SURFACE_UNAVAILABLE',
        details: { chains: ['ethereum'], message: expect.stringContaining('ethereum') },
      });
    });

    it('gives a route the planner cannot turn into steps a verdict (INTERNAL_ERROR, the reason in its details) instead of a retry that ends on the dead-letter topic', async () => {
      const plan = planFor('q-unplannable');
      // A bridge leg that names no destination chain.
      const build = request({ ...plan, legs: [{ ...plan.legs[0], kind: 'bridge' }] });

      await command(build);

      expect(store.swap(build.swapId)).toMatchObject({
        status: 'failed',
        stepCount: 0,
        failureReason: 'INTERNAL_ERROR',
        failureDetails: {
          reason: 'Bridge leg on devnet-a has no destinationChain',
          message: 'Route r1 of quote q-unplannable cannot be planned',
        },
      });
      expect(store.messagesOf(build.swapId).map((m) => m.type)).toEqual(['swap.created', 'swap.failed']);
      // The fast path answers it the same way, at once.
      const atOnce = request({
        ...plan,
        quoteId: 'q-unplannable-2',
        legs: [{ ...plan.legs[0], kind: 'bridge' }],
      });
      const claim: EventClaim = { notClaimed: () => 'TRUE', claimFor: () => 'SELECT 1' };
      expect(await builder.buildAtOnce(atOnce, claim)).toBe(true);
      expect(store.swap(atOnce.swapId)).toMatchObject({ status: 'failed', failureReason: 'INTERNAL_ERROR' });
    });

    it('judges the quote’s expiry when the build was accepted, not when the command is applied', async () => {
      const late = { ...request(planFor('q-late', 'devnet-a', NOW_MS + 50)), acceptedAtMs: NOW_MS };
      clock.atMs = NOW_MS + 10_000;

      await command(late);

      expect(store.swap(late.swapId).status).toBe('planning');
    });

    it('ignores a replayed command, and one that conflicts with the swap built first', async () => {
      const build = request();
      await command(build);

      await command(build);
      await command({ ...build, userAddress: OTHER_USER });

      expect(store.swap(build.swapId)).toMatchObject({ status: 'planning', userAddress: USER });
      expect(store.messagesOf(build.swapId)).toHaveLength(2);
    });
  });

  describe('buildAtOnce (the fast path of swap.commands)', () => {
    /** A command's claim on its eventId, as the consumer hands it (the fake store only compares identities). */
    const claimOf = (): EventClaim => ({ notClaimed: () => 'TRUE', claimFor: () => 'SELECT 1' });

    it('writes a new swap, its steps, the command’s claim and its two messages in one autocommitted statement', async () => {
      const build = request();

      expect(await builder.buildAtOnce(build, claimOf())).toBe(true);

      expect(store.transactions).toEqual([['insertNewSwap']]);
      expect(store.swap(build.swapId)).toMatchObject({ status: 'planning', stepCount: 2, currentStep: 1 });
      expect(store.stepsOf(build.swapId).map((s) => [s.kind, s.status])).toEqual([
        ['approve', 'building'],
        ['swap', 'pending'],
      ]);
      expect(store.messagesOf(build.swapId).map((m) => m.type)).toEqual(['swap.created', 'signing.prepare']);
      expect(store.claims.size).toBe(1);
    });

    it('reads the chains before its transaction opens, so that no connection waits on an RPC node', async () => {
      const transactionsWhenRead: number[] = [];
      const chains = new FakeSwapChains({
        'devnet-a': { evmChainId: 31337 },
        'devnet-b': { evmChainId: 31338 },
      });
      chains.balanceOf = async () => {
        transactionsWhenRead.push(store.transactions.length);
        return 0n;
      };
      const planner = new SwapPlanner(store, chains, plannerConfigOf(), clock);
      const bridged = request(crossChainPlanFor('q-bridge'));

      expect(await planner.buildAtOnce(bridged, claimOf())).toBe(true);

      expect(transactionsWhenRead.length).toBeGreaterThan(0);
      expect(transactionsWhenRead.every((opened) => opened === 0)).toBe(true);
    });

    it('writes nothing and leaves the command to its transaction when the swap exists: the replay is answered there', async () => {
      const build = request();
      await command(build);

      expect(await builder.buildAtOnce(build, claimOf())).toBe(false);
      expect(await builder.buildAtOnce({ ...build, userAddress: OTHER_USER }, claimOf())).toBe(false);

      expect(store.swap(build.swapId)).toMatchObject({ userAddress: USER });
      expect(store.messagesOf(build.swapId)).toHaveLength(2);
      expect(store.claims.size).toBe(0);
    });

    it('writes nothing for a command whose claim was taken already (a redelivery)', async () => {
      const claim = claimOf();
      const build = request();
      await builder.buildAtOnce(build, claim);

      expect(await builder.buildAtOnce({ ...build, swapId: 'swap-elsewhere' }, claim)).toBe(false);
      expect(store.swaps.has('swap-elsewhere')).toBe(false);
    });

    it('records a refused build at once, as the transactional path would: a failed swap without steps, swap.created then swap.failed', async () => {
      const refused = request(planFor('q-eth', 'ethereum'));
      const viaTransaction = request(planFor('q-eth', 'ethereum'));

      expect(await builder.buildAtOnce(refused, claimOf())).toBe(true);
      await command(viaTransaction);

      expect(store.transactions[0]).toEqual(['insertNewSwap']);
      const { id: _refused, ...atOnce } = store.swap(refused.swapId);
      const { id: _viaTransaction, ...transactional } = store.swap(viaTransaction.swapId);
      expect(atOnce).toEqual(transactional);
      expect(atOnce).toMatchObject({
        status: 'failed',
        stepCount: 0,
        failureReason: 'SIGNING_SURFACE_UNAVAILABLE',
      });
      expect(store.stepsOf(refused.swapId)).toEqual([]);
      expect(store.messagesOf(refused.swapId).map((m) => [m.type, m.payload])).toEqual(
        store
          .messagesOf(viaTransaction.swapId)
          .map((m) => [m.type, { ...(m.payload as object), swapId: refused.swapId }]),
      );
    });

    it('lets an infrastructure failure through, to be retried, rather than refuse the build', async () => {
      jest.spyOn(store, 'insertNewSwap').mockRejectedValueOnce(new Error('connection terminated'));

      await expect(builder.buildAtOnce(request(), claimOf())).rejects.toThrow('connection terminated');
      expect(store.swaps.size).toBe(0);
    });
  });
});
