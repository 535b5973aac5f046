import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { isDatabaseUnavailable } from '@swapgw/persistence';
import { GatewayConfig } from '../config/gateway.config';
import { decide, RateLimitDecision, windowPosition } from './fixed-window';

const PURGE_INTERVAL_MS = 5 * 60_000;

/**
 * Fixed-window counter per API key in PostgreSQL: one UPSERT per request counts it and returns the
 * new total atomically, so every gateway instance shares the same budget.
 */
@Injectable()
export class RateLimiter implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(RateLimiter.name);
  private purgeTimer?: NodeJS.Timeout;
  private readonly localCounts = new Map<string, number>();
  private localWindowStartMs = 0;
  private lastFallbackWarningMs = 0;

  constructor(
    private readonly dataSource: DataSource,
    @Inject(GatewayConfig) private readonly config: GatewayConfig,
  ) {}

  async consume(apiKeyId: string, nowMs = Date.now()): Promise<RateLimitDecision> {
    const { windowStartMs, resetSeconds } = windowPosition(nowMs, this.config.RATE_LIMIT_WINDOW_SECONDS);
    let rows: Array<{ request_count: number }>;
    try {
      rows = await this.dataSource.query(
        `INSERT INTO "gateway"."rate_limit_windows" ("api_key_id", "window_start", "request_count")
         VALUES ($1, to_timestamp($2::double precision / 1000), 1)
         ON CONFLICT ("api_key_id", "window_start")
         DO UPDATE SET "request_count" = "rate_limit_windows"."request_count" + 1
         RETURNING "request_count"`,
        [apiKeyId, windowStartMs],
      );
    } catch (error) {
      if (!isDatabaseUnavailable(error)) throw error;
      // The database is down: keep limiting with this instance's own counters rather than refuse
      // every request (catalog and quotes do not need the database) or let them all through.
      this.warnOnce(error as Error);
      return decide(this.countLocally(apiKeyId, windowStartMs), this.config.RATE_LIMIT_REQUESTS, resetSeconds);
    }
    return decide(Number(rows[0].request_count), this.config.RATE_LIMIT_REQUESTS, resetSeconds);
  }

  private countLocally(apiKeyId: string, windowStartMs: number): number {
    if (this.localWindowStartMs !== windowStartMs) {
      this.localCounts.clear();
      this.localWindowStartMs = windowStartMs;
    }
    const count = (this.localCounts.get(apiKeyId) ?? 0) + 1;
    this.localCounts.set(apiKeyId, count);
    return count;
  }

  private warnOnce(error: Error): void {
    const now = Date.now();
    if (now - this.lastFallbackWarningMs < 60_000) return;
    this.lastFallbackWarningMs = now;
    this.logger.warn(`rate limiting falls back to per-instance counters: ${error.message}`);
  }

  /** Drops windows that ended; they are never read again. */
  async purgeEndedWindows(nowMs = Date.now()): Promise<number> {
    const { windowStartMs } = windowPosition(nowMs, this.config.RATE_LIMIT_WINDOW_SECONDS);
    const result: [unknown, number] = await this.dataSource.query(
      `DELETE FROM "gateway"."rate_limit_windows" WHERE "window_start" < to_timestamp($1::double precision / 1000)`,
      [windowStartMs],
    );
    return result[1];
  }

  onModuleInit(): void {
    this.purgeTimer = setInterval(() => {
      this.purgeEndedWindows().catch((error: Error) => this.logger.warn(`rate-limit purge failed: ${error.message}`));
    }, PURGE_INTERVAL_MS);
    this.purgeTimer.unref();
  }

  onModuleDestroy(): void {
    if (this.purgeTimer) clearInterval(this.purgeTimer);
  }
}
