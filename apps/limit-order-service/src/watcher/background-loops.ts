import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { LimitOrderServiceConfig } from '../config/limit-order-service.config';
import { ExpirySweeper } from '../sweeper/expiry-sweeper';
import { TriggerWatcher } from './trigger-watcher';

/**
 * Runs the sweeper and the watcher on their intervals. Each loop awaits its round before
 * scheduling the next, so rounds never overlap within an instance; SKIP LOCKED keeps instances apart.
 */
@Injectable()
export class BackgroundLoops implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(BackgroundLoops.name);
  private readonly timers = new Set<NodeJS.Timeout>();
  private stopped = false;

  constructor(
    private readonly config: LimitOrderServiceConfig,
    private readonly sweeper: ExpirySweeper,
    private readonly watcher: TriggerWatcher,
  ) {}

  onApplicationBootstrap(): void {
    this.loop('sweeper', this.config.SWEEP_INTERVAL_MS, () => this.sweeper.sweep());
    if (this.config.WATCH_INTERVAL_MS > 0) {
      // The watcher wakes often and only quotes the orders whose next check is due.
      this.loop('watcher', Math.min(this.config.WATCH_INTERVAL_MS, 1000), () => this.watcher.watch());
    }
  }

  onApplicationShutdown(): void {
    this.stopped = true;
    for (const timer of this.timers) clearTimeout(timer);
  }

  private loop(name: string, intervalMs: number, round: () => Promise<unknown>): void {
    const schedule = () => {
      if (this.stopped) return;
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        round()
          .catch((error: Error) => this.logger.warn({ msg: `${name} round failed`, error: error.message }))
          .finally(schedule);
      }, intervalMs);
      this.timers.add(timer);
    };
    schedule();
  }
}
