import { AsyncResource } from 'node:async_hooks';

export interface GroupedWritesOptions<T, R> {
  /**
   * Writes one batch, in the order the items were added, and resolves with each item's result in
   * that order (or nothing, for writes without one); rejects when none of them was written.
   */
  write(items: T[]): Promise<readonly R[] | void>;
  /** Items in one batch, at most. */
  maxBatch: number;
  /** Batches being written at once, at most: an item added while they are waits for the next one. */
  maxInFlight: number;
}

interface Waiting<T, R> {
  item: T;
  resolve(result: R): void;
  reject(error: unknown): void;
}

/**
 * Writes that each caller awaits on its own, sent to the store together (a group commit). An item
 * added while fewer than `maxInFlight` batches are being written goes at once, alone: at rest
 * nothing waits for company. Under a burst, the items that arrive while batches are in flight
 * wait for the next one, up to `maxBatch` of them in one statement, so a thousand callers cost a
 * handful of round trips, commits and pool connections rather than a thousand. Each caller's
 * promise settles with its batch: resolved with its own result once the batch is written, rejected
 * with the batch's error.
 *
 * A batch is written outside the async context of whichever caller started it (no caller's
 * request id, trace or connection lane leaks into the others'): `write` sets what it needs.
 */
export class GroupedWrites<T, R = void> {
  private waiting: Waiting<T, R>[] = [];
  private inFlight = 0;
  /** Captured where the writer was made, so that batches run in that context, not a caller's. */
  private readonly home = new AsyncResource('GroupedWrites');

  constructor(private readonly options: GroupedWritesOptions<T, R>) {
    if (!Number.isInteger(options.maxBatch) || options.maxBatch < 1)
      throw new Error(`maxBatch must be a positive integer, got ${options.maxBatch}`);
    if (!Number.isInteger(options.maxInFlight) || options.maxInFlight < 1)
      throw new Error(`maxInFlight must be a positive integer, got ${options.maxInFlight}`);
  }

  /** Resolves with `item`'s result once it is written (with its batch); rejects with its batch's error. */
  add(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      this.home.runInAsyncScope(() => this.writeWhatWaits());
    });
  }

  /** Items added and not yet settled. */
  get pendingCount(): number {
    return this.waiting.length;
  }

  private writeWhatWaits(): void {
    while (this.inFlight < this.options.maxInFlight && this.waiting.length > 0) {
      const batch = this.waiting.splice(0, this.options.maxBatch);
      this.inFlight++;
      void this.writeBatch(batch);
    }
  }

  private async writeBatch(batch: Waiting<T, R>[]): Promise<void> {
    try {
      const results = await this.options.write(batch.map((waiting) => waiting.item));
      batch.forEach((waiting, i) => waiting.resolve(results?.[i] as R));
    } catch (error) {
      for (const waiting of batch) waiting.reject(error);
    } finally {
      this.inFlight--;
      this.writeWhatWaits();
    }
  }
}
