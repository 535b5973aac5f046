import type { SwapViewEntity } from './swap-view.entity';

/** A row of gateway.swap_views and its version: the `xmin` of the row as read or written, as text. */
export interface VersionedView {
  readonly view: SwapViewEntity;
  readonly version: string;
}

interface CachedView extends VersionedView {
  storedAtMs: number;
}

interface ReadInFlight {
  readers: number;
  /** A change of unknown version was announced while a read was running: what it returns may be older. */
  changed: boolean;
  /** The versions announced while a read was running: a read that returns another may be older. */
  announced: Set<string>;
  /** Called once the last read finished (and its answer was stored or not). */
  settled: Array<() => void>;
}

/** What a read of one row holds between asking PostgreSQL and storing the answer. */
export interface ViewRead {
  readonly swapId: string;
}

/**
 * The swap views this gateway instance read or wrote, kept until the row changes: a signing poll of
 * a swap nothing happened to is answered from memory, without a PostgreSQL round trip, and the
 * projector's next change of the row starts from the cached version instead of reading it. Each
 * entry carries the row's version (its `xmin`). The row's changes are known from the NOTIFY every
 * write of gateway.swap_views sends (SwapViewChanges), whichever instance wrote it, so the cache is
 * exact while LISTEN is in place:
 * - a change drops the swap's entry, and marks reads running at that moment so that their (maybe
 *   older) answer is not stored; a change that names the version the entry (or the read's answer)
 *   already is, is the echo of that very write and keeps it: an autocommitted statement writes one
 *   version of the row, and no other write has that `xmin`;
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
    return this.versioned(swapId, nowMs)?.view;
  }

  /** The cached row and its version, if it is fresh and the cache may be used now. */
  versioned(swapId: string, nowMs: number): VersionedView | undefined {
    if (!this.enabled()) return undefined;
    const cached = this.entries.get(swapId);
    if (!cached) return undefined;
    if (nowMs - cached.storedAtMs >= this.ttlMs) {
      this.entries.delete(swapId);
      return undefined;
    }
    return cached;
  }

  /** Call before reading (or writing) the row in PostgreSQL; pass the result to `finishRead`. */
  beginRead(swapId: string): ViewRead {
    const inFlight = this.reads.get(swapId);
    if (inFlight) inFlight.readers += 1;
    else this.reads.set(swapId, { readers: 1, changed: false, announced: new Set(), settled: [] });
    return { swapId };
  }

  /**
   * Stores what the read found at `version`, unless the row changed while it ran (a change of
   * unknown version, or one naming another version) or there is no row.
   */
  finishRead(read: ViewRead, found: VersionedView | null, nowMs: number): void {
    const inFlight = this.reads.get(read.swapId);
    if (!inFlight) return;
    inFlight.readers -= 1;
    if (inFlight.readers === 0) this.reads.delete(read.swapId);
    if (this.mayStore(inFlight, found)) {
      this.entries.delete(read.swapId);
      this.entries.set(read.swapId, { ...found, storedAtMs: nowMs });
      if (this.entries.size > this.maxEntries) {
        const oldest = this.entries.keys().next().value as string;
        this.entries.delete(oldest);
      }
    }
    if (inFlight.readers === 0) for (const settled of inFlight.settled.splice(0)) settled();
  }

  /**
   * Calls `then` once the reads and writes of the swap running now have finished (their answer
   * stored, or kept out), and returns true; false, without calling it, when none is running. A
   * change's waiters woken this way find the row the change's own write returned in the cache,
   * instead of all reading PostgreSQL at once while that write's answer is on its way.
   */
  afterReads(swapId: string, then: () => void): boolean {
    const inFlight = this.reads.get(swapId);
    if (!inFlight) return false;
    inFlight.settled.push(then);
    return true;
  }

  private mayStore(inFlight: ReadInFlight, found: VersionedView | null): found is VersionedView {
    if (inFlight.changed || found === null || !this.enabled()) return false;
    for (const version of inFlight.announced) if (version !== found.version) return false;
    return true;
  }

  /** The row of this swap changed, to `version` when the writer named it (else: unknown). */
  invalidate(swapId: string, version?: string): void {
    if (version === undefined || this.entries.get(swapId)?.version !== version) this.entries.delete(swapId);
    const inFlight = this.reads.get(swapId);
    if (!inFlight) return;
    if (version === undefined) inFlight.changed = true;
    else inFlight.announced.add(version);
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
