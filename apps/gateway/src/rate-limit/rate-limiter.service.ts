import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { Clock, PeriodicWork } from '@swapgw/runtime';
import { GatewayConfig } from '../config/gateway.config';
import { ClusterWindowCounter, WindowCount } from './cluster-window-counter';
import { decide, RateLimitDecision, windowPosition } from './fixed-window';
import { RateLimitWindowRepository } from './rate-limit-window.repository';

const PURGE_INTERVAL_MS = 5 * 60_000;
const WARNING_INTERVAL_MS = 60_000;
/** Shutdown must not hang on an unreachable database: the final flush gets this long. */
const FLUSH_ON_SHUTDOWN_TIMEOUT_MS = 3000;

/**
 * Fixed-window limit per API key, shared by every gateway instance without a database write per
 * request: each request is counted and decided in memory (ClusterWindowCounter), and every
 * RATE_LIMIT_SYNC_INTERVAL_MS one statement adds this instance's new counts to PostgreSQL and
 * returns the cluster totals. A single-row UPSERT per request serialised all of an integrator's
 * traffic on one row lock and cost a round trip per request; the price is a bounded overshoot
 * across instances (docs/api-conventions.md, Limits).
 */
@Injectable()
export class RateLimiter implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(RateLimiter.name);
  private readonly counter = new ClusterWindowCounter();
  private readonly syncLoop: PeriodicWork;
  private readonly purgeLoop: PeriodicWork;
  private syncInFlight?: Promise<void>;
  private lastWarningMs = -Infinity;
  private failingSinceMs?: number;

  constructor(
    private readonly store: RateLimitWindowRepository,
    @Inject(GatewayConfig) private readonly config: GatewayConfig,
    private readonly clock: Clock,
  ) {
    // Rounds never overlap: a slow round does not stack up behind itself.
    this.syncLoop = new PeriodicWork({
      name: 'rate-limit-sync',
      intervalMs: config.RATE_LIMIT_SYNC_INTERVAL_MS,
      run: () => this.sync(),
    });
    this.purgeLoop = new PeriodicWork({
      name: 'rate-limit-purge',
      intervalMs: PURGE_INTERVAL_MS,
      run: async () => void (await this.purgeEndedWindows()),
    });
  }

  /** Counts the request and decides it from memory: never waits on PostgreSQL. */
  consume(apiKeyId: string, nowMs = this.clock.nowMs()): RateLimitDecision {
    const { windowStartMs, resetSeconds } = windowPosition(nowMs, this.config.RATE_LIMIT_WINDOW_SECONDS);
    return decide(this.counter.count(apiKeyId, windowStartMs), this.config.RATE_LIMIT_REQUESTS, resetSeconds);
  }

  /**
   * One reconciliation round: adds what this instance counted since the last round and learns the
   * cluster totals. Never rejects; a failed round keeps its counts for the next one. Rounds do not
   * overlap: a call during a round waits for that round.
   */
  sync(nowMs = this.clock.nowMs()): Promise<void> {
    this.syncInFlight ??= this.syncOnce(nowMs).finally(() => {
      this.syncInFlight = undefined;
    });
    return this.syncInFlight;
  }

  private async syncOnce(nowMs: number): Promise<void> {
    const { windowStartMs } = windowPosition(nowMs, this.config.RATE_LIMIT_WINDOW_SECONDS);
    const batch = this.counter.takeSyncBatch(windowStartMs);
    if (batch.length === 0) return;
    let totals: WindowCount[];
    try {
      totals = await this.store.add(batch);
    } catch (error) {
      // PostgreSQL down or refusing: keep limiting on the last known totals plus this instance's
      // own counts (which keep growing), rather than refuse every request or let them all through.
      this.counter.restore(batch);
      this.failingSinceMs ??= nowMs;
      this.warnAtMostOncePerInterval(
        nowMs,
        `rate-limit sync failed, limiting on this instance's counters meanwhile: ${(error as Error).message}`,
      );
      return;
    }
    this.counter.settle(batch, totals);
    if (this.failingSinceMs !== undefined) {
      this.logger.log(`rate-limit sync resumed after ${Math.round((nowMs - this.failingSinceMs) / 1000)} s`);
      this.failingSinceMs = undefined;
    }
  }

  private warnAtMostOncePerInterval(nowMs: number, message: string): void {
    if (nowMs - this.lastWarningMs < WARNING_INTERVAL_MS) return;
    this.lastWarningMs = nowMs;
    this.logger.warn(message);
  }

  /** Drops windows that ended; they are never read again. */
  async purgeEndedWindows(nowMs = this.clock.nowMs()): Promise<number> {
    return this.store.purgeBefore(windowPosition(nowMs, this.config.RATE_LIMIT_WINDOW_SECONDS).windowStartMs);
  }

  onModuleInit(): void {
    this.syncLoop.start();
    this.purgeLoop.start();
  }

  /**
   * Stops the timers and adds what is still unsynced (best effort, bounded): the other instances keep
   * counting this window, and they should see this instance's last requests. Runs before TypeORM
   * closes its connections (onApplicationShutdown).
   */
  async onModuleDestroy(): Promise<void> {
    await Promise.all([this.syncLoop.stop(), this.purgeLoop.stop()]);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, FLUSH_ON_SHUTDOWN_TIMEOUT_MS);
      timer.unref();
    });
    const flush = async () => {
      await this.syncInFlight; // a round already running, then one for what came after it
      await this.sync();
    };
    await Promise.race([flush(), timeout]);
    clearTimeout(timer);
  }
}
