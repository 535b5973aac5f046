import { Logger } from '@nestjs/common';
import { ManualClock } from '@swapgw/runtime';
import { FakeSwapChains, InMemorySwapRepository, plannerConfigOf } from '../../test/support/swap-fakes';
import { buildRequestFor, NOW_MS, planFor, stepRef } from '../../test/support/swap-fixtures';
import { SwapPlanner } from './swap-planner.service';
import { SwapExpirySweeper } from './swap-expiry.sweeper';
import { RepricingSignal } from './repricing-signal';
import { SwapProgress } from './swap-progress.service';

describe('SwapExpirySweeper', () => {
  let store: InMemorySwapRepository;
  let clock: ManualClock;
  let progress: SwapProgress;
  let sweeper: SwapExpirySweeper;
  let builder: SwapPlanner;
  let swapIds = 0;
  const builtSwap = async () =>
    (await builder.build(buildRequestFor(planFor('q1'), `swap-${++swapIds}`))).swapId;

  beforeAll(() => Logger.overrideLogger(false));
  afterAll(() => Logger.overrideLogger(['log', 'error', 'warn', 'debug', 'verbose']));

  beforeEach(() => {
    store = new InMemorySwapRepository();
    clock = new ManualClock(NOW_MS);
    const config = plannerConfigOf();
    progress = new SwapProgress(store, clock, config, new RepricingSignal());
    sweeper = new SwapExpirySweeper(store, progress, config, clock);
    builder = new SwapPlanner(
      store,
      new FakeSwapChains({ 'devnet-a': { evmChainId: 31337 } }),
      config,
      clock,
    );
  });

  it('expires the swaps abandoned past their deadline, but not one whose transaction is in flight', async () => {
    const abandoned = await builtSwap();
    const inflight = await builtSwap();
    const young = await builtSwap();
    await store.transaction((tx) =>
      progress.submitted({ ...stepRef(inflight, 1), txHash: '0x01', submittedAtMs: NOW_MS }, tx),
    );
    clock.atMs = store.swap(abandoned).expiresAtMs;
    store.patchSwap(young, { expiresAtMs: clock.atMs + 1 });

    expect(await sweeper.sweepOnce()).toBe(1);

    expect(store.swap(abandoned)).toMatchObject({ status: 'expired', failureReason: 'SWAP_DEADLINE_PASSED' });
    expect(store.stepsOf(abandoned).map((s) => s.status)).toEqual(['expired', 'pending']);
    expect(
      store
        .messagesOf(abandoned)
        .filter((m) => m.type === 'swap.expired')
        .map((m) => m.payload),
    ).toEqual([{ swapId: abandoned, status: 'expired', reason: 'SWAP_DEADLINE_PASSED' }]);
    expect(store.swap(inflight).status).toBe('submitted');
    expect(store.swap(young).status).toBe('planning');
    expect(await sweeper.sweepOnce()).toBe(0);
  });

  it('expires each due swap in a transaction of its own', async () => {
    const later = await builtSwap();
    const sooner = await builtSwap();
    store.patchSwap(later, { expiresAtMs: NOW_MS - 1 });
    store.patchSwap(sooner, { expiresAtMs: NOW_MS - 2 });
    store.transactions.length = 0;

    expect(await sweeper.sweepOnce()).toBe(2);

    expect(store.transactions).toEqual([
      ['lockSwapAndCurrentStep', 'updateProgress'],
      ['lockSwapAndCurrentStep', 'updateProgress'],
    ]);
    expect(store.messagesOf(sooner).at(-1)?.type).toBe('swap.expired');
    expect(store.messagesOf(later).at(-1)?.type).toBe('swap.expired');
  });
});
