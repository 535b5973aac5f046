/**
 * What one gateway instance knows about each API key's fixed window, kept in memory so that a
 * request is decided without asking PostgreSQL. Pure bookkeeping: the timer and the SQL live in
 * RateLimiter and RateLimitWindowRepository.
 *
 * For each key the instance keeps the cluster total PostgreSQL last returned for the window (every
 * instance's synced requests, this one's included) plus what it counted itself since: the counts
 * of the sync in flight and those not sent yet. Their sum is never more than the true cluster
 * total; what it misses is what other instances counted but have not synced (or this instance has
 * not yet heard about), which is the overshoot docs/api-conventions.md (Limits) bounds.
 */

/**
 * Requests counted for one API key in one window: a row of a sync batch (count 0: nothing to add,
 * only read the total back), or a total PostgreSQL returned.
 */
export interface WindowCount {
  apiKeyId: string;
  windowStartMs: number;
  count: number;
}

interface KeyWindow {
  windowStartMs: number;
  /** Cluster total for this window as last returned by PostgreSQL (includes this instance's synced counts). */
  knownTotal: number;
  /** Counted here and sent in the sync now in flight, not yet acknowledged. */
  sending: number;
  /** Counted here and not sent yet. */
  unsynced: number;
}

export class ClusterWindowCounter {
  private readonly keys = new Map<string, KeyWindow>();

  /**
   * Counts one request (allowed or not, as the PostgreSQL counter always did) and returns the count
   * the decision uses: last known cluster total + this instance's counts not yet in that total.
   */
  count(apiKeyId: string, windowStartMs: number): number {
    let entry = this.keys.get(apiKeyId);
    if (!entry || entry.windowStartMs !== windowStartMs) {
      // A new window starts from zero. Unsent counts of the ended window are dropped with it: no
      // decision ever reads an ended window again.
      entry = { windowStartMs, knownTotal: 0, sending: 0, unsynced: 0 };
      this.keys.set(apiKeyId, entry);
    }
    entry.unsynced += 1;
    return entry.knownTotal + entry.sending + entry.unsynced;
  }

  /**
   * The batch of the next sync: one row per key, its unsent counts (moved to "sending"), or 0 for a
   * key of the current window with nothing new, so that its total is refreshed anyway (a quiet
   * instance still learns what the others counted). Pass it to settle() or restore() once the
   * statement ends. Keys whose window ended before `currentWindowStartMs` and have nothing left to
   * send are forgotten here, which keeps memory proportional to the keys seen recently.
   */
  takeSyncBatch(currentWindowStartMs: number): WindowCount[] {
    const batch: WindowCount[] = [];
    for (const [apiKeyId, entry] of this.keys) {
      if (entry.unsynced > 0) {
        batch.push({ apiKeyId, windowStartMs: entry.windowStartMs, count: entry.unsynced });
        entry.sending += entry.unsynced;
        entry.unsynced = 0;
      } else if (entry.windowStartMs === currentWindowStartMs) {
        batch.push({ apiKeyId, windowStartMs: entry.windowStartMs, count: 0 });
      } else if (entry.sending === 0) {
        this.keys.delete(apiKeyId);
      }
    }
    return batch;
  }

  /** The batch was added: `totals` are the cluster totals PostgreSQL returned for its windows. */
  settle(sent: WindowCount[], totals: WindowCount[]): void {
    for (const { apiKeyId, windowStartMs, count } of sent) {
      const entry = this.entryOf(apiKeyId, windowStartMs);
      if (entry) entry.sending = Math.max(0, entry.sending - count);
    }
    for (const { apiKeyId, windowStartMs, count } of totals) {
      const entry = this.entryOf(apiKeyId, windowStartMs);
      // Totals only grow within a window; max() keeps an older answer from undoing a newer one.
      if (entry) entry.knownTotal = Math.max(entry.knownTotal, count);
    }
  }

  /** The batch was not added (PostgreSQL unreachable...): its counts go back to be sent next time. */
  restore(sent: WindowCount[]): void {
    for (const { apiKeyId, windowStartMs, count } of sent) {
      const entry = this.entryOf(apiKeyId, windowStartMs);
      if (!entry) continue; // the key moved on to a new window: the ended one no longer matters
      const back = Math.min(count, entry.sending);
      entry.sending -= back;
      entry.unsynced += back;
    }
  }

  /** Counts of this instance not yet acknowledged by PostgreSQL, all keys together. */
  pendingCount(): number {
    let pending = 0;
    for (const entry of this.keys.values()) pending += entry.sending + entry.unsynced;
    return pending;
  }

  private entryOf(apiKeyId: string, windowStartMs: number): KeyWindow | undefined {
    const entry = this.keys.get(apiKeyId);
    return entry && entry.windowStartMs === windowStartMs ? entry : undefined;
  }
}
