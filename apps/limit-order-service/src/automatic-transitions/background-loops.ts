import { Injectable, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { PeriodicWork } from '@swapgw/runtime';
import { LimitOrderServiceConfig } from '../config/limit-order-service.config';
import { ExpirySweeper } from './expiry-sweeper';
import { TriggerWatcher } from './trigger-watcher';

/**
 * Runs the sweeper and the watcher on their intervals (PeriodicWork: rounds never overlap within an
 * instance; SKIP LOCKED keeps instances apart), and waits for a round in flight on shutdown.
 */
@Injectable()
export class BackgroundLoops implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly loops: PeriodicWork[] = [];

  constructor(
    private readonly config: LimitOrderServiceConfig,
    private readonly sweeper: ExpirySweeper,
    private readonly watcher: TriggerWatcher,
  ) {}

  onApplicationBootstrap(): void {
    this.loops.push(
      new PeriodicWork({
        name: 'limit-order-sweeper',
        intervalMs: this.config.SWEEP_INTERVAL_MS,
        run: async () => void (await this.sweeper.sweep()),
      }),
    );
    if (this.config.WATCH_INTERVAL_MS > 0) {
      // The watcher wakes often and only quotes the orders whose next check is due.
      this.loops.push(
        new PeriodicWork({
          name: 'limit-order-watcher',
          intervalMs: Math.min(this.config.WATCH_INTERVAL_MS, 1000),
          run: async () => void (await this.watcher.watch()),
        }),
      );
    }
    for (const loop of this.loops) loop.start();
  }

  /** Before the database and Kafka close: a round in flight finishes with them. */
  async onModuleDestroy(): Promise<void> {
    await Promise.all(this.loops.map((loop) => loop.stop()));
  }
}
