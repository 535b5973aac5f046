import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { CodedError, ErrorCodes, RoutePlan } from '@swapgw/contracts';
import { withConnectionPriority } from '@swapgw/persistence';
import { Clock, GroupedWrites, PeriodicWork } from '@swapgw/runtime';
import type { ClaimRead, ReadWithClaim } from '../idempotency/idempotent-response.repository';

/** Served quotes are kept this long past their expiry (a late build still gets QUOTE_EXPIRED, not 404). */
export const SERVED_QUOTE_RETENTION_MS = 60 * 60_000;
const PURGE_INTERVAL_MS = 5 * 60_000;
/**
 * Served quotes written in one statement, at most, and statements at once: a burst of a thousand
 * quotes is a few inserts, not a thousand (each its own round trip, pool connection and commit:
 * 11 s of a quote's 21 s under 3,000 at once).
 */
export const SERVED_QUOTES_PER_INSERT = 200;
const SERVED_QUOTE_INSERTS_IN_FLIGHT = 2;

interface ServedQuoteRow {
  quoteId: string;
  owner: string;
  expiresAtMs: number;
  plans: string;
  createdAtMs: number;
}

/** A quote served to an owner, with the plan of one of its routes (null: not a route of the quote). */
export interface ServedRoute {
  expiresAtMs: number;
  plan: RoutePlan | null;
}

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

  /** The client waits on its quote's row: after builds' statements, ahead of polls and projections. */
  private readonly inserts = new GroupedWrites<ServedQuoteRow>({
    maxBatch: SERVED_QUOTES_PER_INSERT,
    maxInFlight: SERVED_QUOTE_INSERTS_IN_FLIGHT,
    write: (rows) => withConnectionPriority('request', () => this.insert(rows)),
  });

  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
  ) {}

  /**
   * Records a quote before it is answered. Concurrent records share an insert (GroupedWrites); each
   * resolves once its row is stored, and rejects with its insert's error.
   */
  record(
    quoteId: string,
    owner: string,
    expiresAtMs: number,
    plans: RoutePlan[],
    nowMs = this.clock.nowMs(),
  ): Promise<void> {
    return this.inserts.add({
      quoteId,
      owner,
      expiresAtMs,
      plans: JSON.stringify(plans),
      createdAtMs: nowMs,
    });
  }

  private async insert(rows: ServedQuoteRow[]): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO "gateway"."served_quotes" ("quote_id", "owner", "expires_at_ms", "route_plans", "created_at_ms")
       SELECT * FROM unnest($1::varchar[], $2::varchar[], $3::bigint[], $4::jsonb[], $5::bigint[])
       ON CONFLICT ("quote_id") DO NOTHING`,
      [
        rows.map((row) => row.quoteId),
        rows.map((row) => row.owner),
        rows.map((row) => row.expiresAtMs),
        rows.map((row) => row.plans),
        rows.map((row) => row.createdAtMs),
      ],
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
    const rows: Array<{ route: ServedRoute | null }> = await this.dataSource.query(
      `SELECT (${SERVED_ROUTE_READ.sql('i')}) AS "route"
         FROM (SELECT $1::text AS "owner", $2::text AS "arg1", $3::text AS "arg2") AS i`,
      [owner, quoteId, routeId],
    );
    return planOfServedRoute(rows[0]?.route ?? null, quoteId, routeId, nowMs);
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

/**
 * The served route of a build as a read to send with the claim of its Idempotency-Key: one
 * ServedRoute, or null for a quote not served to `owner`. Undefined when the body has no quote and
 * route to read: ids its validation refuses (the claim runs before the pipes, and a NUL character
 * would fail the whole statement in PostgreSQL).
 */
export function servedRouteReadOf(owner: string | undefined, body: unknown): ReadWithClaim | undefined {
  const { quoteId, routeId } = (body ?? {}) as { quoteId?: unknown; routeId?: unknown };
  if (owner === undefined || !isReadableId(quoteId) || !isReadableId(routeId)) return undefined;
  return { read: SERVED_ROUTE_READ, args: [quoteId, routeId] };
}

/** An id as BuildSwapDto takes it: 1 to 64 characters, none of them NUL. */
function isReadableId(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0 && value.length <= 64 && !value.includes('\u0000');
}

/**
 * The plan of `routeId` of a quote served to its owner, judged at `nowMs`: QUOTE_NOT_FOUND (404:
 * unknown, or served to another API key), UNKNOWN_ROUTE (400) or QUOTE_EXPIRED (410).
 */
export function planOfServedRoute(
  route: ServedRoute | null,
  quoteId: string,
  routeId: string,
  nowMs: number,
): RoutePlan {
  if (route === null)
    throw new CodedError(ErrorCodes.QUOTE_NOT_FOUND, `Quote ${quoteId} does not exist`, { quoteId });
  if (!route.plan) {
    throw new CodedError(ErrorCodes.UNKNOWN_ROUTE, `Route ${routeId} is not a route of quote ${quoteId}`, {
      quoteId,
      routeId,
      field: 'routeId',
    });
  }
  const expiresAtMs = Number(route.expiresAtMs);
  if (nowMs >= expiresAtMs) {
    throw new CodedError(ErrorCodes.QUOTE_EXPIRED, 'The quote expired; request a new quote and retry', {
      quoteId,
      expiresAtMs,
    });
  }
  return route.plan;
}

/**
 * A scalar subquery over a row of the quote's owner (`owner`), its id (`arg1`) and the route's
 * (`arg2`): the ServedRoute as one jsonb value, or NULL for a quote not served to that owner.
 */
const SERVED_ROUTE_READ: ClaimRead = {
  name: 'served-route',
  arity: 2,
  sql: (row) => `SELECT jsonb_build_object('expiresAtMs', q."expires_at_ms",
            'plan', (SELECT p FROM jsonb_array_elements(q."route_plans") p WHERE p->>'routeId' = ${row}."arg2" LIMIT 1))
          FROM "gateway"."served_quotes" AS q WHERE q."quote_id" = ${row}."arg1" AND q."owner" = ${row}."owner"`,
};
