import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { Clock, PeriodicWork } from '@swapgw/runtime';
import { ExecutionPlannerConfig } from '../config/execution-planner.config';
import { EXPIRABLE_STATUSES, SwapProgress } from './swap-progress.service';
import { SwapRepository } from './swap.repository';

const BATCH = 50;

/**
 * Ends swaps abandoned past their deadline (the router calls they encode would revert anyway):
 * `expired` with swap.expired, so the client's next poll gets 409 EXECUTION_TERMINAL instead of a
 * payload that cannot succeed. Safe with several planner instances: each swap is expired under its
 * row lock, and one already expired is skipped.
 */
@Injectable()
export class SwapExpirySweeper implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(SwapExpirySweeper.name);
  private loop: PeriodicWork | undefined;

  constructor(
    private readonly swaps: SwapRepository,
    private readonly progress: SwapProgress,
    private readonly config: ExecutionPlannerConfig,
    private readonly clock: Clock,
  ) {}

  onApplicationBootstrap(): void {
    this.loop = new PeriodicWork({
      name: 'swap-expiry-sweep',
      intervalMs: this.config.SWAP_EXPIRY_SWEEP_MS,
      run: () => this.sweepOnce(),
    });
    this.loop.start();
  }

  /** Before the database closes: a pass in flight finishes with it. */
  async onModuleDestroy(): Promise<void> {
    await this.loop?.stop();
  }

  /** One pass: expires the swaps that are due; returns how many it expired. */
  async sweepOnce(): Promise<number> {
    const due = await this.swaps.dueForExpiry(EXPIRABLE_STATUSES, this.clock.nowMs(), BATCH);
    let expired = 0;
    for (const id of due) if (await this.progress.expireIfDue(id)) expired += 1;
    if (expired > 0) this.logger.log({ msg: 'swaps expired past their deadline', count: expired });
    return expired;
  }
}
