import type { SwapViewEntity } from './swap-view.entity';

interface CachedView {
  view: SwapViewEntity;
  storedAtMs: number;
}

interface ReadInFlight {
  readers: number;
  /** A change was announced while a read was running: what it returns may be older than the change. */
  changed: boolean;
}

/** What a read of one row holds between asking PostgreSQL and storing the answer. */
export interface ViewRead {
  readonly swapId: string;
}

/**
 * The swap views this gateway instance read, kept until the row changes: a signing poll of a swap
 * nothing happened to is answered from memory, without a PostgreSQL round trip. The row's changes
 * are known from the NOTIFY every write of gateway.swap_views sends (SwapViewChanges), whichever
 * instance wrote it, so the cache is exact while LISTEN is in place:
 * - a change drops the swap's entry, and marks reads running at that moment so that their (maybe
 *   older) answer is not stored;
 * - the owner decides when it may be used at all (not while LISTEN is lost: see `enabled`) and
 *   clears it when LISTEN resumes, since notifications sent meanwhile were missed;
 * - entries also expire after `ttlMs`, a bound on staleness should a notification ever be missed
 *   unnoticed, and the oldest go first beyond `maxEntries`.
 */
export class SwapViewCache {
  private readonly entries = new Map<string, CachedView>();
  private readonly reads = new Map<string, ReadInFlight>();

  constructor(
    private readonly maxEntries: number,
    private readonly ttlMs: number,
    private readonly enabled: () => boolean = () => true,
  ) {}

  /** The cached row, if it is fresh and the cache may be used now. */
  get(swapId: string, nowMs: number): SwapViewEntity | undefined {
    if (!this.enabled()) return undefined;
    const cached = this.entries.get(swapId);
    if (!cached) return undefined;
    if (nowMs - cached.storedAtMs >= this.ttlMs) {
      this.entries.delete(swapId);
      return undefined;
    }
    return cached.view;
  }

  /** Call before reading the row from PostgreSQL; pass the result to `finishRead`. */
  beginRead(swapId: string): ViewRead {
    const inFlight = this.reads.get(swapId);
    if (inFlight) inFlight.readers += 1;
    else this.reads.set(swapId, { readers: 1, changed: false });
    return { swapId };
  }

  /** Stores what the read found, unless the row changed while it ran (or there is no row). */
  finishRead(read: ViewRead, view: SwapViewEntity | null, nowMs: number): void {
    const inFlight = this.reads.get(read.swapId);
    if (!inFlight) return;
    inFlight.readers -= 1;
    if (inFlight.readers === 0) this.reads.delete(read.swapId);
    if (inFlight.changed || view === null || !this.enabled()) return;
    this.entries.delete(read.swapId);
    this.entries.set(read.swapId, { view, storedAtMs: nowMs });
    if (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
    }
  }

  /** The row of this swap changed. */
  invalidate(swapId: string): void {
    this.entries.delete(swapId);
    const inFlight = this.reads.get(swapId);
    if (inFlight) inFlight.changed = true;
  }

  /** Every row may have changed (notifications were missed). */
  clear(): void {
    this.entries.clear();
    for (const inFlight of this.reads.values()) inFlight.changed = true;
  }

  get size(): number {
    return this.entries.size;
  }
}
