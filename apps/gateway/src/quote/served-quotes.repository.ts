import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { CodedError, ErrorCodes, RoutePlan } from '@swapgw/contracts';
import { Clock, PeriodicWork } from '@swapgw/runtime';

/** Served quotes are kept this long past their expiry (a late build still gets QUOTE_EXPIRED, not 404). */
export const SERVED_QUOTE_RETENTION_MS = 60 * 60_000;
const PURGE_INTERVAL_MS = 5 * 60_000;

/**
 * gateway.served_quotes: what POST /quote answered, with the executable plan of every route. A
 * build is judged from here (unknown quote 404, unknown route 400, expired 410) and carries the
 * plan to the planner, which therefore never asks quote-service on the build path.
 */
@Injectable()
export class ServedQuotes implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(ServedQuotes.name);
  private readonly purgeLoop = new PeriodicWork({
    name: 'served-quotes-purge',
    intervalMs: PURGE_INTERVAL_MS,
    run: async () => void (await this.purge()),
  });

  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
  ) {}

  async record(
    quoteId: string,
    owner: string,
    expiresAtMs: number,
    plans: RoutePlan[],
    nowMs = this.clock.nowMs(),
  ): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO "gateway"."served_quotes" ("quote_id", "owner", "expires_at_ms", "route_plans", "created_at_ms")
       VALUES ($1, $2, $3, $4, $5) ON CONFLICT ("quote_id") DO NOTHING`,
      [quoteId, owner, expiresAtMs, JSON.stringify(plans), nowMs],
    );
  }

  /**
   * The plan of a route of a quote served to `owner` that has not expired at `nowMs`.
   * Throws QUOTE_NOT_FOUND (404: unknown, or served to another API key), UNKNOWN_ROUTE (400) or
   * QUOTE_EXPIRED (410).
   */
  async planFor(
    owner: string,
    quoteId: string,
    routeId: string,
    nowMs = this.clock.nowMs(),
  ): Promise<RoutePlan> {
    const rows: Array<{ expires_at_ms: string; plan: RoutePlan | null }> = await this.dataSource.query(
      `SELECT "expires_at_ms", (SELECT p FROM jsonb_array_elements("route_plans") p WHERE p->>'routeId' = $2 LIMIT 1) AS "plan"
       FROM "gateway"."served_quotes" WHERE "quote_id" = $1 AND "owner" = $3`,
      [quoteId, routeId, owner],
    );
    if (rows.length === 0)
      throw new CodedError(ErrorCodes.QUOTE_NOT_FOUND, `Quote ${quoteId} does not exist`, { quoteId });
    const [row] = rows;
    if (!row.plan) {
      throw new CodedError(ErrorCodes.UNKNOWN_ROUTE, `Route ${routeId} is not a route of quote ${quoteId}`, {
        quoteId,
        routeId,
        field: 'routeId',
      });
    }
    const expiresAtMs = Number(row.expires_at_ms);
    if (nowMs >= expiresAtMs) {
      throw new CodedError(ErrorCodes.QUOTE_EXPIRED, 'The quote expired; request a new quote and retry', {
        quoteId,
        expiresAtMs,
      });
    }
    return row.plan;
  }

  /** Drops quotes expired for longer than the retention; returns how many. */
  async purge(nowMs = this.clock.nowMs()): Promise<number> {
    const result: [unknown, number] = await this.dataSource.query(
      `DELETE FROM "gateway"."served_quotes" WHERE "expires_at_ms" < $1`,
      [nowMs - SERVED_QUOTE_RETENTION_MS],
    );
    return result[1];
  }

  onModuleInit(): void {
    this.purgeLoop.start();
  }

  onModuleDestroy(): Promise<void> {
    return this.purgeLoop.stop();
  }
}
