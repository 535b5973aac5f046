import { Logger } from '@nestjs/common';
import { RepriceRouteLegRequest, RepriceRouteLegResult, Topics } from '@swapgw/contracts';
import { ManualClock } from '@swapgw/runtime';
import { FakeSwapChains, InMemorySwapRepository, plannerConfigOf } from '../../test/support/swap-fakes';
import {
  buildRequestFor,
  crossChainPlanFor,
  NOW_MS,
  planFor,
  stepRef,
} from '../../test/support/swap-fixtures';
import { SwapPlanner } from './swap-planner.service';
import { LegRepricer, SwapPriceChecker } from './swap-price-checker';
import { RepricingSignal } from './repricing-signal';
import { SwapProgress } from './swap-progress.service';

const txHash = (n: number) => '0x' + n.toString(16).padStart(64, '0');

/** quote-service as the test sets it: an answer, or a failure, per call. */
class ScriptedRepricer extends LegRepricer {
  readonly asked: RepriceRouteLegRequest[] = [];
  next: (request: RepriceRouteLegRequest) => Promise<RepriceRouteLegResult> = () =>
    Promise.reject(new Error('no answer scripted'));

  reprice(_swapId: string, request: RepriceRouteLegRequest): Promise<RepriceRouteLegResult> {
    this.asked.push(request);
    return this.next(request);
  }
}

/** The answer of quote.reprice for leg 1 of crossChainPlanFor with the swap leg now paying `legOut`. */
const answerFor = (legOut: bigint): RepriceRouteLegResult => ({
  legIndex: 1,
  repriced: true,
  expectedAmountOut: legOut.toString(),
  minAmountOut: ((legOut * 9950n) / 10000n).toString(),
  quotedExpectedAmountOut: '500000000000000',
  quotedMinAmountOut: '497500000000000',
  // The leg was quoted with a minimum of 497500000000000.
  movedBeyondSlippage: legOut < 497500000000000n,
});

describe('price checks before a later leg spends', () => {
  let store: InMemorySwapRepository;
  let clock: ManualClock;
  let progress: SwapProgress;
  let builder: SwapPlanner;
  let repricer: ScriptedRepricer;
  let checker: SwapPriceChecker;
  let signal: RepricingSignal;

  const chains = new FakeSwapChains({ 'devnet-a': { evmChainId: 31337 }, 'devnet-b': { evmChainId: 31338 } });
  const confirmedEvent = (swapId: string, stepIndex: number, chain: string) => ({
    ...stepRef(swapId, stepIndex, chain),
    txHash: txHash(stepIndex),
    blockNumber: 7,
    confirmations: 1,
    confirmedAtMs: clock.atMs,
  });
  const confirm = (swapId: string, stepIndex: number, chain: string) =>
    store.transaction((tx) => progress.stepConfirmed(confirmedEvent(swapId, stepIndex, chain), tx));
  /** The cross-chain swap with its bridge leg done: steps 1 (approve) and 2 (deposit) confirmed. */
  async function bridged(swapId = 'swap-x'): Promise<string> {
    await builder.build({ ...buildRequestFor(crossChainPlanFor('q1'), swapId), gasPayment: 'user' });
    await confirm(swapId, 1, 'devnet-a');
    await confirm(swapId, 2, 'devnet-a');
    store.outbox.length = 0;
    return swapId;
  }
  const statuses = (swapId: string) => store.stepsOf(swapId).map((s) => `${s.kind}:${s.status}`);
  const types = (swapId: string) => store.messagesOf(swapId).map((m) => m.type);

  beforeAll(() => Logger.overrideLogger(false));
  afterAll(() => Logger.overrideLogger(['log', 'error', 'warn', 'debug', 'verbose']));

  beforeEach(() => {
    store = new InMemorySwapRepository();
    clock = new ManualClock(NOW_MS);
    const config = plannerConfigOf({
      SWAP_PRICE_CHECK_WAIT_MS: 30_000,
      SWAP_PRICE_CHECK_POLL_MS: 1000,
      SWAP_PRICE_CHECK_IDLE_POLL_MS: 30_000,
    });
    signal = new RepricingSignal();
    progress = new SwapProgress(store, clock, config, signal);
    builder = new SwapPlanner(store, chains, config, clock);
    repricer = new ScriptedRepricer();
    checker = new SwapPriceChecker(store, progress, repricer, config, clock, signal);
  });

  describe('polling: cheap when no step waits', () => {
    let reads: jest.SpyInstance;
    beforeEach(() => {
      reads = jest.spyOn(store, 'awaitingPriceCheck');
    });
    /** The loop's passes, one a second for `seconds` seconds. */
    async function pollEverySecondFor(seconds: number): Promise<void> {
      for (let second = 0; second < seconds; second++) {
        clock.atMs += 1000;
        await checker.poll();
      }
    }

    it('reads once at start-up, then not again before SWAP_PRICE_CHECK_IDLE_POLL_MS while nothing waits', async () => {
      await checker.poll();
      expect(reads).toHaveBeenCalledTimes(1);
      await pollEverySecondFor(29);
      expect(reads).toHaveBeenCalledTimes(1);
      await pollEverySecondFor(1);
      expect(reads).toHaveBeenCalledTimes(2);
    });

    it('a step entering repricing here wakes it: it reads every poll while the step waits, then idles again', async () => {
      const swapId = await bridged();
      await checker.poll(); // nothing waits yet: idle
      reads.mockClear();
      await confirm(swapId, 3, 'devnet-b'); // the approve on devnet-b: the swap step enters repricing
      expect(statuses(swapId)[3]).toBe('swap:repricing');

      repricer.next = () => Promise.reject(new Error('quote-service away'));
      await checker.poll();
      clock.atMs += 1000;
      await checker.poll();
      expect(reads).toHaveBeenCalledTimes(2);
      expect(repricer.asked).toHaveLength(2);

      repricer.next = async () => answerFor(500_000_000_000_000n);
      clock.atMs += 1000;
      expect(await checker.poll()).toBe(1);
      expect(statuses(swapId)[3]).toBe('swap:building');
      // Nothing waits any more: the next read finds nothing, and it idles.
      await pollEverySecondFor(1);
      expect(reads).toHaveBeenCalledTimes(4);
      await pollEverySecondFor(29);
      expect(reads).toHaveBeenCalledTimes(4);
    });

    it('a signal whose read finds nothing (another instance decided the step first): one read, then idle', async () => {
      const swapId = await bridged();
      await checker.poll(); // nothing waits yet: idle
      await confirm(swapId, 3, 'devnet-b'); // signalled
      await progress.priceChecked(`${swapId}:4`, { result: answerFor(498_000_000_000_000n) });
      expect(statuses(swapId)[3]).toBe('swap:building');
      reads.mockClear();

      clock.atMs += 1000;
      expect(await checker.poll()).toBe(0);
      expect(reads).toHaveBeenCalledTimes(1);
      await pollEverySecondFor(29);
      expect(reads).toHaveBeenCalledTimes(1);
      await pollEverySecondFor(1);
      expect(reads).toHaveBeenCalledTimes(2);
    });

    it('a signal while a pass reads (the read missed the step): the next pass reads again instead of idling', async () => {
      const swapId = await bridged();
      // The step enters repricing, and the signal comes, while this pass's read is under way.
      reads.mockImplementationOnce(async () => {
        await confirm(swapId, 3, 'devnet-b');
        return [];
      });
      await checker.poll();
      repricer.next = async () => answerFor(500_000_000_000_000n);

      expect(await checker.poll()).toBe(1);
      expect(statuses(swapId)[3]).toBe('swap:building');
    });
  });

  describe('RepricingSignal: told once the step’s transaction committed', () => {
    it('tells the step entered repricing after the commit, when a read finds it', async () => {
      const swapId = await bridged();
      const seenAtSignal: string[][] = [];
      signal.listen(() => seenAtSignal.push(statuses(swapId)));

      await confirm(swapId, 3, 'devnet-b');

      expect(seenAtSignal).toEqual([
        ['approve:confirmed', 'bridge:confirmed', 'approve:confirmed', 'swap:repricing'],
      ]);
    });

    it('tells nothing when the transaction rolls back; once when the event is applied again and commits', async () => {
      const swapId = await bridged();
      const before = statuses(swapId);
      const told = jest.fn();
      signal.listen(told);

      const failing = store.transaction(async (tx) => {
        await progress.stepConfirmed(confirmedEvent(swapId, 3, 'devnet-b'), tx);
        throw new Error('the consumer’s transaction failed');
      });

      await expect(failing).rejects.toThrow('the consumer’s transaction failed');
      expect(told).not.toHaveBeenCalled();
      expect(statuses(swapId)).toEqual(before);

      await confirm(swapId, 3, 'devnet-b');
      expect(told).toHaveBeenCalledTimes(1);
    });
  });

  it('plans a price check on the later leg’s spending step only, not on its approve nor on the first leg', async () => {
    await builder.build({ ...buildRequestFor(crossChainPlanFor('q1'), 'swap-x'), gasPayment: 'user' });
    const steps = store.stepsOf('swap-x');
    expect(steps.map((s) => [s.kind, s.chain, s.priceCheck?.legIndex ?? null])).toEqual([
      ['approve', 'devnet-a', null],
      ['bridge', 'devnet-a', null],
      ['approve', 'devnet-b', null],
      ['swap', 'devnet-b', 1],
    ]);
    expect(steps[3].priceCheck?.plan.routeId).toBe('r1');

    await builder.build({ ...buildRequestFor(planFor('q2'), 'swap-y'), gasPayment: 'user' });
    expect(store.stepsOf('swap-y').map((s) => s.priceCheck)).toEqual([null, null]);
  });

  it('holds the spending step in repricing instead of preparing it, and tells the client why', async () => {
    const swapId = await bridged();
    await confirm(swapId, 3, 'devnet-b'); // the approve on devnet-b

    expect(statuses(swapId)).toEqual([
      'approve:confirmed',
      'bridge:confirmed',
      'approve:confirmed',
      'swap:repricing',
    ]);
    expect(store.swap(swapId)).toMatchObject({ status: 'planning', currentStep: 4 });
    expect(types(swapId)).toEqual(['swap.step-confirmed', 'swap.signing-pending']);
    expect(store.messagesOf(swapId).some((m) => m.topic === Topics.signingCommands)).toBe(false);
  });

  it('a price within the leg’s slippage: the step is prepared as planned', async () => {
    const swapId = await bridged();
    await confirm(swapId, 3, 'devnet-b');
    store.outbox.length = 0;
    repricer.next = async () => answerFor(498_000_000_000_000n);

    expect(await checker.checkOnce()).toBe(1);

    expect(repricer.asked).toEqual([{ plan: crossChainPlanFor('q1'), legIndex: 1 }]);
    expect(statuses(swapId).at(-1)).toBe('swap:building');
    const [prepare] = store.messagesOf(swapId);
    expect(prepare).toMatchObject({
      topic: Topics.signingCommands,
      type: 'signing.prepare',
      payload: { stepId: `${swapId}:4`, kind: 'swap', chain: 'devnet-b' },
    });
    expect(await checker.checkOnce()).toBe(0); // nothing waits any more
  });

  it('a price moved beyond slippage: no payload; the swap fails QUOTE_PRICE_CHANGED with the new figures and what the user holds', async () => {
    const swapId = await bridged();
    await confirm(swapId, 3, 'devnet-b');
    store.outbox.length = 0;
    repricer.next = async () => answerFor(400_000_000_000_000n);

    await checker.checkOnce();

    expect(statuses(swapId).at(-1)).toBe('swap:failed');
    const details = {
      step: { current: 4, total: 4 },
      chain: 'devnet-b',
      kind: 'swap',
      legIndex: 1,
      expectedAmountOut: '0.0004',
      minAmountOut: '0.000398',
      quotedExpectedAmountOut: '0.0005',
      quotedMinAmountOut: '0.0004975',
      tokenOut: crossChainPlanFor('q1').tokenOut,
      heldToken: {
        chain: 'devnet-b',
        address: crossChainPlanFor('q1').legs[1].tokenIn.address,
        symbol: 'USDC',
        decimals: 6,
      },
    };
    expect(store.swap(swapId)).toMatchObject({
      status: 'failed',
      failureReason: 'QUOTE_PRICE_CHANGED',
      failureDetails: details,
    });
    expect(store.messagesOf(swapId)).toEqual([
      {
        topic: Topics.swapEvents,
        type: 'swap.failed',
        aggregateId: swapId,
        payload: { swapId, status: 'failed', reason: 'QUOTE_PRICE_CHANGED', details },
      },
    ]);
  });

  it('nothing to re-price (repriced false): the step is prepared as planned', async () => {
    const swapId = await bridged();
    await confirm(swapId, 3, 'devnet-b');
    repricer.next = async () => ({ ...answerFor(0n), repriced: false, movedBeyondSlippage: false });

    await checker.checkOnce();

    expect(statuses(swapId).at(-1)).toBe('swap:building');
  });

  it('quote-service silent: asked again at each pass, then after priceCheckWaitMs the step is prepared with its planned minimum', async () => {
    const swapId = await bridged();
    await confirm(swapId, 3, 'devnet-b');
    store.outbox.length = 0;

    expect(await checker.checkOnce()).toBe(0);
    clock.atMs += 29_999;
    expect(await checker.checkOnce()).toBe(0);
    expect(statuses(swapId).at(-1)).toBe('swap:repricing');
    expect(store.messagesOf(swapId)).toEqual([]);

    clock.atMs += 1;
    expect(await checker.checkOnce()).toBe(1);
    expect(repricer.asked).toHaveLength(3);
    expect(statuses(swapId).at(-1)).toBe('swap:building');
    expect(types(swapId)).toEqual(['signing.prepare']);
  });

  it('the swap’s deadline passes while it waits: it expires, priced or not', async () => {
    const swapId = await bridged();
    await confirm(swapId, 3, 'devnet-b');
    clock.atMs = store.swap(swapId).expiresAtMs;
    repricer.next = async () => answerFor(498_000_000_000_000n);

    await checker.checkOnce();

    expect(store.swap(swapId)).toMatchObject({ status: 'expired', failureReason: 'SWAP_DEADLINE_PASSED' });
    expect(statuses(swapId).at(-1)).toBe('swap:expired');
    expect(types(swapId)).toEqual(['swap.step-confirmed', 'swap.signing-pending', 'swap.expired']);
  });

  it('an answer for a step that moved on changes nothing (another instance decided first)', async () => {
    const swapId = await bridged();
    await confirm(swapId, 3, 'devnet-b');
    repricer.next = async () => answerFor(498_000_000_000_000n);
    await checker.checkOnce();
    const before = store.messagesOf(swapId).length;

    expect(await progress.priceChecked(`${swapId}:4`, { result: answerFor(1n) })).toBe('ignored');

    expect(statuses(swapId).at(-1)).toBe('swap:building');
    expect(store.messagesOf(swapId)).toHaveLength(before);
  });
});
