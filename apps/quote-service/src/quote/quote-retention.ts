import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { Clock, PeriodicWork } from '@swapgw/runtime';
import { QuoteServiceConfig } from '../config/quote-service.config';
import { QuoteRepository } from './quote.repository';

/** How often quotes past their retention are looked for (deleting them can wait minutes). */
const PRUNE_INTERVAL_MS = 10 * 60_000;

/**
 * Deletes quotes (and, by cascade, their route plans) some time after they expired: an expired
 * quote can no longer be built, and keeping the retention window lets support look one up by id.
 */
@Injectable()
export class QuoteRetention implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(QuoteRetention.name);
  private loop?: PeriodicWork;

  constructor(
    private readonly quotes: QuoteRepository,
    private readonly config: QuoteServiceConfig,
    private readonly clock: Clock,
  ) {}

  /** Deletes quotes expired before now − retention; answers how many. */
  async prune(): Promise<number> {
    const cutoff = this.clock.nowMs() - this.config.QUOTE_RETENTION_MS;
    return this.quotes.deleteExpiredBefore(cutoff);
  }

  onApplicationBootstrap(): void {
    this.start(PRUNE_INTERVAL_MS);
  }

  onModuleDestroy(): Promise<void> {
    return this.stop();
  }

  start(intervalMs: number): void {
    this.loop ??= new PeriodicWork({
      name: 'quote-retention',
      intervalMs,
      run: async () => {
        const deleted = await this.prune();
        if (deleted > 0) this.logger.log({ msg: 'pruned expired quotes', deleted });
      },
    });
    this.loop.start();
  }

  stop(): Promise<void> {
    return this.loop?.stop() ?? Promise.resolve();
  }
}
