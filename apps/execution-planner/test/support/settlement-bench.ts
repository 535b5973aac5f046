import { ManualClock } from '@swapgw/runtime';
import { RepricingSignal } from '../../src/swaps/repricing-signal';
import { SettlementPoller } from '../../src/swaps/settlement-poller';
import { SwapPlanner } from '../../src/swaps/swap-planner.service';
import { SwapProgress } from '../../src/swaps/swap-progress.service';
import type { StepSettlement } from '../../src/swaps/swap-step.entity';
import { FakeForwards, FakeMints, FakePackets, FakeThornode } from './settlement-fakes';
import { FakeSwapChains, InMemorySwapRepository, plannerConfigOf } from './swap-fakes';
import { buildRequestFor, NOW_MS, planFor, stepRef } from './swap-fixtures';

/**
 * The settlement poller over an in-memory planner: its store, its progress, and fakes of the
 * protocols it reads (THORNode, the Cosmos chains' packets, CCTP mints).
 */
export class SettlementBench {
  readonly store = new InMemorySwapRepository();
  readonly thornode = new FakeThornode();
  readonly packets = new FakePackets();
  readonly mints = new FakeMints();
  readonly forwards = new FakeForwards();
  readonly progress: SwapProgress;
  readonly builder: SwapPlanner;
  readonly poller: SettlementPoller;

  constructor(config = plannerConfigOf({})) {
    const clock = new ManualClock(NOW_MS);
    this.progress = new SwapProgress(this.store, clock, config, new RepricingSignal());
    this.builder = new SwapPlanner(
      this.store,
      new FakeSwapChains({ 'devnet-a': { evmChainId: 31337 } }),
      config,
      clock,
    );
    this.poller = new SettlementPoller(
      this.store,
      this.progress,
      this.thornode,
      this.packets,
      config,
      this.mints,
      this.forwards,
    );
  }

  /**
   * A two-step swap whose last step settles by `settlement` (as the planner sets it for its leg),
   * both steps confirmed on their chains, the last as `txHash`; the outbox emptied. Its id.
   */
  async lastStepSettling(
    settlement: StepSettlement,
    txHash: string,
    key: string,
    quoteKey = key,
  ): Promise<string> {
    const { swapId } = await this.builder.build(buildRequestFor(planFor(quoteKey), key));
    const last = this.store.steps.get(`${swapId}:2`);
    if (!last) throw new Error('no step 2');
    last.settlement = settlement;
    for (const stepIndex of [1, 2])
      await this.store.transaction((tx) =>
        this.progress.stepConfirmed(
          {
            ...stepRef(swapId, stepIndex),
            txHash: stepIndex === 2 ? txHash : '0x' + '01'.repeat(32),
            blockNumber: 7,
            confirmations: 1,
            confirmedAtMs: NOW_MS,
          },
          tx,
        ),
      );
    this.store.outbox.length = 0;
    return swapId;
  }
}
