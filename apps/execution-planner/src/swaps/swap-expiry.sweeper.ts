import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { PLANNER_OPTIONS, PlannerOptions } from '../planner.options';
import { EXPIRABLE_STATUSES, SwapProgress } from './swap-progress.service';

const BATCH = 50;

/**
 * Ends swaps abandoned past their deadline (the router calls they encode would revert anyway):
 * `expired` with swap.expired, so the client's next poll gets 409 EXECUTION_TERMINAL instead of a
 * payload that cannot succeed. Safe with several planner instances: each swap is expired under its
 * row lock, and one already expired is skipped.
 */
@Injectable()
export class SwapExpirySweeper implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(SwapExpirySweeper.name);
  private timer: NodeJS.Timeout | undefined;
  private pass: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly dataSource: DataSource,
    private readonly progress: SwapProgress,
    @Inject(PLANNER_OPTIONS) private readonly options: PlannerOptions,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => {
      this.pass = this.sweepOnce().catch((error: Error) => this.logger.error({ msg: 'expiry sweep failed', error: error.message }));
    }, this.options.expirySweepIntervalMs);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.pass;
  }

  /** One pass: expires the swaps that are due; returns how many it expired. */
  async sweepOnce(): Promise<number> {
    const due = (await this.dataSource.query(
      `SELECT "id" FROM "planner"."swaps" WHERE "status" = ANY($1) AND "expires_at_ms" <= $2 ORDER BY "expires_at_ms" LIMIT ${BATCH}`,
      [EXPIRABLE_STATUSES, this.options.clock()],
    )) as Array<{ id: string }>;
    let expired = 0;
    for (const { id } of due) if (await this.progress.expireIfDue(id)) expired += 1;
    if (expired > 0) this.logger.log({ msg: 'swaps expired past their deadline', count: expired });
    return expired;
  }
}
