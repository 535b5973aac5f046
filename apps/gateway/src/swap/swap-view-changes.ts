import { Injectable, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { PgChannelListener } from '@swapgw/persistence';
import { GatewayConfig } from '../config/gateway.config';
import { SwapViewCache } from './swap-view-cache';

/**
 * The channel every write of a swap's view row notifies: `<swapId>:<version>` when the write knows the
 * row's new version (its `xmin`: an autocommitted statement that returns the row), else `<swapId>`.
 */
export const SWAP_VIEW_CHANNEL = 'gateway_swap_views';

/** The payload of a notification on SWAP_VIEW_CHANNEL: the swap, and the row's new version when named. */
export function swapViewChangeOf(payload: string): { swapId: string; version?: string } {
  const colon = payload.indexOf(':');
  return colon < 0
    ? { swapId: payload }
    : { swapId: payload.slice(0, colon), version: payload.slice(colon + 1) };
}

/** A waiter reads its row at least this often even without a notification. */
export const WAIT_REREAD_MS = 1_000;

/** How a turn of a wait ended: the row changed, a re-read is due, or the wait is over. */
export type WaitTurn = 'changed' | 'reread' | 'over';

/**
 * One waiter's subscription to a swap's view row. `changed` remembers a notification that came
 * while the waiter was reading, so none is lost between a read and the next wait.
 */
export class SwapViewWatch {
  private changed = false;
  private wake: (() => void) | null = null;

  constructor(
    private readonly release: (watch: SwapViewWatch) => void,
    private readonly closing: () => boolean = () => false,
  ) {}

  notify(): void {
    this.changed = true;
    this.wake?.();
  }

  /**
   * Resolves when the row changed since the last call (at once if it already did): true; or at
   * `deadlineMs` without a change: false.
   */
  changedOrDeadline(deadlineMs: number): Promise<boolean> {
    if (this.changed) {
      this.changed = false;
      return Promise.resolve(true);
    }
    return new Promise<boolean>((resolve) => {
      const done = (told: boolean): void => {
        clearTimeout(timer);
        this.wake = null;
        this.changed = false;
        resolve(told);
      };
      const timer = setTimeout(() => done(false), Math.max(0, deadlineMs - Date.now()));
      this.wake = () => done(true);
    });
  }

  /**
   * One turn of a wait until `deadlineMs`: `changed` when the row changed; `reread` after
   * WAIT_REREAD_MS without a notification (read again anyway: a notification lost with a LISTEN
   * connection that died silently costs a second, not the wait); `over` at the deadline, or once
   * the instance is shutting down (a waiting request then answers what it has, so that it does not
   * hold the shutdown). Whether a turn runs to the deadline is decided before it starts: a timer
   * may fire a millisecond before Date.now() reaches the deadline, which must not cost one more read.
   */
  async next(deadlineMs: number): Promise<WaitTurn> {
    if (this.closing() || Date.now() >= deadlineMs) return 'over';
    const waitUntil = Math.min(deadlineMs, Date.now() + WAIT_REREAD_MS);
    const told = await this.changedOrDeadline(waitUntil);
    if (this.closing()) return 'over';
    if (told) return 'changed';
    return waitUntil >= deadlineMs ? 'over' : 'reread';
  }

  close(): void {
    this.wake?.();
    this.release(this);
  }
}

/**
 * Tells waiting builds that their swap's view row changed, whichever gateway instance projected
 * the change: every write of the row NOTIFYs `gateway_swap_views` with the swapId (and the row's new
 * version when the writer knows it) in its transaction (delivered at commit) and every instance
 * LISTENs on one dedicated connection. A build wait reads the row once, then again only when told,
 * instead of polling PostgreSQL on a timer. The same notifications keep `cache` exact, from which
 * signing polls are answered: a change drops the entry, unless it names the version the entry
 * already is (this instance wrote it and cached what the write returned). When LISTEN was
 * lost and comes back, every waiter is woken to read once and the cache is emptied, since
 * notifications are not kept; while it is lost, the cache is not used.
 */
@Injectable()
export class SwapViewChanges implements OnModuleInit, OnModuleDestroy {
  private readonly watches = new Map<string, Set<SwapViewWatch>>();
  private readonly listener: PgChannelListener;
  private closing = false;
  readonly cache: SwapViewCache;

  constructor(dataSource: DataSource, config: GatewayConfig) {
    this.listener = new PgChannelListener(dataSource, SWAP_VIEW_CHANNEL, {
      purpose: 'swap-views-listen',
      retryDelayMs: 1000,
      onNotification: (payload) => {
        const { swapId, version } = swapViewChangeOf(payload);
        this.notify(swapId, version);
      },
      onResumed: () => {
        this.cache.clear();
        this.notifyAll();
      },
    });
    this.cache = new SwapViewCache(
      config.SWAP_VIEW_CACHE_ENTRIES,
      config.SWAP_VIEW_CACHE_TTL_MS,
      () => config.SWAP_VIEW_CACHE_ENTRIES > 0 && this.listener.isListening(),
    );
  }

  /** Subscribes before the first read of the row; close() the watch when done. */
  watch(swapId: string): SwapViewWatch {
    const watch = new SwapViewWatch(
      (released) => {
        const set = this.watches.get(swapId);
        set?.delete(released);
        if (set?.size === 0) this.watches.delete(swapId);
      },
      () => this.closing,
    );
    const set = this.watches.get(swapId) ?? new Set<SwapViewWatch>();
    set.add(watch);
    this.watches.set(swapId, set);
    return watch;
  }

  /** How many waits are open (metrics, tests). */
  get waiting(): number {
    let count = 0;
    for (const set of this.watches.values()) count += set.size;
    return count;
  }

  /**
   * The row of `swapId` changed (to `version`, when the writer named it): wakes its waiters, once
   * a write of the row this instance has in flight (the projector's, whose statement sent this
   * very notification) has stored what it returned, so that they read it from the cache.
   */
  notify(swapId: string, version?: string): void {
    this.cache.invalidate(swapId, version);
    if (!this.watches.has(swapId)) return;
    const wake = () => {
      for (const watch of this.watches.get(swapId) ?? []) watch.notify();
    };
    if (!this.cache.afterReads(swapId, wake)) wake();
  }

  private notifyAll(): void {
    for (const set of this.watches.values()) for (const watch of set) watch.notify();
  }

  async onModuleInit(): Promise<void> {
    await this.listener.start();
  }

  /** Before the HTTP server stops (Nest's destroy hooks run first): waiting requests answer now. */
  async onModuleDestroy(): Promise<void> {
    this.closing = true;
    this.notifyAll();
    await this.listener.stop();
  }
}
