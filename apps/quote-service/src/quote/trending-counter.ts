import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { PeriodicWork } from '@swapgw/runtime';
import { CatalogRepository } from '../catalog/catalog.repository';

/** How often the counts are added to the catalog (a ranking hint: seconds late is fine). */
const TRENDING_FLUSH_INTERVAL_MS = 5000;

/**
 * The trending signal of GET /tokens?sort=trending (how many quotes named a token), counted in
 * memory and added to catalog tokens in one statement every interval. Written inside each quote's
 * transaction it made every concurrent quote of a popular pair update the same two rows: quotes
 * queued on those row locks and, locking them in different orders, deadlocked (a 500). The signal
 * is a ranking hint: counts not yet flushed when a process dies are lost, which is acceptable.
 */
@Injectable()
export class TrendingCounter implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(TrendingCounter.name);
  private pending = new Map<string, { chain: string; assetKey: string; count: number }>();
  private loop?: PeriodicWork;
  private flushing: Promise<void> | null = null;

  constructor(private readonly catalog: CatalogRepository) {}

  /** One quote named this token. */
  count(chain: string, assetKey: string): void {
    const key = `${chain}\u0000${assetKey}`;
    const entry = this.pending.get(key);
    if (entry) entry.count += 1;
    else this.pending.set(key, { chain, assetKey, count: 1 });
  }

  /** Adds what was counted since the last flush; on failure the counts wait for the next one. */
  flush(): Promise<void> {
    this.flushing ??= this.flushOnce().finally(() => (this.flushing = null));
    return this.flushing;
  }

  private async flushOnce(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = this.pending;
    this.pending = new Map();
    // Sorted, so that two instances flushing the same tokens lock them in the same order.
    const rows = [...batch.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, row]) => row);
    try {
      await this.catalog.addQuoteCounts(rows);
    } catch (error) {
      for (const row of rows) for (let i = 0; i < row.count; i++) this.count(row.chain, row.assetKey);
      this.logger.warn({
        msg: 'trending counts not flushed; kept for the next flush',
        error: (error as Error).message,
      });
    }
  }

  onApplicationBootstrap(): void {
    this.start(TRENDING_FLUSH_INTERVAL_MS);
  }

  /** Before the database closes: the last counts. */
  onModuleDestroy(): Promise<void> {
    return this.stop();
  }

  start(intervalMs: number): void {
    this.loop ??= new PeriodicWork({ name: 'trending-counter', intervalMs, run: () => this.flush() });
    this.loop.start();
  }

  async stop(): Promise<void> {
    await this.loop?.stop();
    await this.flush();
  }
}
