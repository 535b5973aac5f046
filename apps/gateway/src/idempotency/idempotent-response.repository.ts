import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { asPersistenceError, withConnectionPriority } from '@swapgw/persistence';
import { GroupedWrites, PeriodicWork } from '@swapgw/runtime';
import { GatewayConfig } from '../config/gateway.config';

export interface IdempotencyScope {
  owner: string;
  routeKey: string;
  idempotencyKey: string;
}

/** What is replayed: the handler's data (re-enveloped with fresh meta) or the error body. */
export type StoredResponse =
  | { kind: 'data'; data: unknown }
  | { kind: 'error'; error: { code: string; message: string; details?: Record<string, unknown> } };

export interface IdempotencyClaim {
  id: string;
  /** Fencing token: a claim taken over after its lease cannot be completed by the old holder. */
  claimedAt: string;
}

/**
 * A read of the handler's sent in the statement that claims the key, so that the request waits for
 * one round trip to PostgreSQL less. Its answer reaches the handler only when the claim is taken
 * (`HeldIdempotencyClaim.readWithClaim`). Claims are taken in groups (one statement for the
 * claims that arrive together), so the read is a shape and this claim's arguments: claims whose
 * reads have the same shape share their statement.
 */
export interface ReadWithClaim {
  /** This claim's arguments, as text: `args->>0` is the first in `sql`. */
  args: string[];
  /** A scalar subquery (one value, or NULL) over `args`, a jsonb array of one claim's arguments. */
  sql(args: string): string;
}

/**
 * The completion of a claim as part of a handler's own statement (see HeldIdempotencyClaim): the
 * handler's change and the stored response then commit together, in one round trip.
 */
export interface ClaimCompletion {
  /** An UPDATE that completes the claim when the CTE `source` has a row, RETURNING one when it did. */
  completeFor(source: string, parameters: unknown[]): string;
  /** The claim and the answer it is completed with, for a statement that completes several (completionsOf). */
  readonly terms: CompletionTerms;
  /** The handler's statement completed the claim: nothing is left to store after the handler. */
  completed(): void;
}

/** What one completion writes: the claim it completes, and the answer stored. */
export interface CompletionTerms {
  claim: IdempotencyClaim;
  status: number;
  response: StoredResponse;
}

export type ClaimOutcome =
  | { outcome: 'claimed'; claim: IdempotencyClaim; readWithClaim?: unknown }
  | { outcome: 'conflict' }
  | { outcome: 'in_progress' }
  | { outcome: 'replay'; status: number; response: StoredResponse };

interface ExistingRow {
  request_fingerprint: string;
  status: 'in_progress' | 'completed';
  response_status: number | null;
  response_body: StoredResponse | null;
}

const PURGE_INTERVAL_MS = 10 * 60_000;

/**
 * Claims taken in one statement, at most, and statements at once: a burst of a thousand builds
 * is a handful of claiming statements, not a thousand (each its own round trip, pool connection
 * and commit: a build's median wait for its claim was 4.5 s of its 5 s under 3,000 at once).
 */
export const CLAIMS_PER_STATEMENT = 200;
const CLAIM_STATEMENTS_IN_FLIGHT = 2;

interface ClaimRequest {
  scope: IdempotencyScope;
  fingerprint: string;
  read?: ReadWithClaim;
}

/** A claim taken, with what its read found (undefined when it had none). */
interface TakenClaim {
  claim: IdempotencyClaim;
  readWithClaim?: unknown;
}

/**
 * The claims of the rows of "input" (owner, route, key, fingerprint), leased for $1 ms and kept $2
 * hours, returning each claim taken. A row is only taken over when it expired, or when its holder
 * vanished (lease over) while handling the very same request; anything else stays with its first
 * claimant. Rows are inserted in the order of "ord" (sorted by key), so that two statements that
 * claim the same keys lock them in the same order.
 */
const CLAIM_INPUT = `INSERT INTO "gateway"."idempotency_records" AS r
     ("owner", "route_key", "idempotency_key", "request_fingerprint", "status", "created_at", "locked_until", "expires_at")
   SELECT "owner", "route_key", "idempotency_key", "request_fingerprint", 'in_progress', clock_timestamp(),
          clock_timestamp() + make_interval(secs => $1::double precision / 1000),
          clock_timestamp() + make_interval(hours => $2::int)
     FROM "input" ORDER BY "ord"
   ON CONFLICT ("owner", "route_key", "idempotency_key") DO UPDATE SET
     "request_fingerprint" = EXCLUDED."request_fingerprint", "status" = 'in_progress',
     "response_status" = NULL, "response_body" = NULL, "created_at" = EXCLUDED."created_at",
     "locked_until" = EXCLUDED."locked_until", "expires_at" = EXCLUDED."expires_at"
   WHERE r."expires_at" < now()
      OR (r."status" = 'in_progress' AND r."locked_until" < now()
          AND r."request_fingerprint" = EXCLUDED."request_fingerprint")
   RETURNING "id", "created_at"::text AS "claimed_at", "owner", "route_key", "idempotency_key"`;

/** Orders scopes by owner, route and key. */
function compareScopes(a: IdempotencyScope, b: IdempotencyScope): number {
  return (
    compareText(a.owner, b.owner) ||
    compareText(a.routeKey, b.routeKey) ||
    compareText(a.idempotencyKey, b.idempotencyKey)
  );
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * idempotency_records: the first request claims (owner, route, key) with one atomic INSERT ... ON
 * CONFLICT (claims that arrive together share one); every other request with the same scope reads the row and is replayed, rejected as a
 * conflict, or told the first is still in progress.
 */
@Injectable()
export class IdempotentResponseRepository implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(IdempotentResponseRepository.name);
  private readonly purgeLoop = new PeriodicWork({
    name: 'idempotency-purge',
    intervalMs: PURGE_INTERVAL_MS,
    run: async () => {
      const count = await this.purgeExpired();
      if (count > 0) this.logger.log(`purged ${count} expired idempotency records`);
    },
  });

  constructor(
    private readonly dataSource: DataSource,
    @Inject(GatewayConfig) private readonly config: GatewayConfig,
  ) {}

  /** Claims that arrive together are taken in one statement (GroupedWrites), on the commands' lane. */
  private readonly claims = new GroupedWrites<ClaimRequest, TakenClaim | undefined>({
    maxBatch: CLAIMS_PER_STATEMENT,
    maxInFlight: CLAIM_STATEMENTS_IN_FLIGHT,
    write: (requests) => withConnectionPriority('command', () => this.claimTogether(requests)),
  });

  /**
   * Claims the key for this request, or tells what an earlier request with it left. With
   * `readWithClaim`, that read travels in the claiming statement and its answer comes with the claim.
   */
  async claim(
    scope: IdempotencyScope,
    fingerprint: string,
    readWithClaim?: ReadWithClaim,
  ): Promise<ClaimOutcome> {
    try {
      for (let attempt = 0; attempt < 3; attempt++) {
        const taken = await this.claims.add({ scope, fingerprint, read: readWithClaim });
        if (taken !== undefined) {
          return readWithClaim
            ? { outcome: 'claimed', claim: taken.claim, readWithClaim: taken.readWithClaim ?? null }
            : { outcome: 'claimed', claim: taken.claim };
        }

        const existing: ExistingRow[] = await this.dataSource.query(
          `SELECT "request_fingerprint", "status", "response_status", "response_body"
             FROM "gateway"."idempotency_records"
            WHERE "owner" = $1 AND "route_key" = $2 AND "idempotency_key" = $3`,
          [scope.owner, scope.routeKey, scope.idempotencyKey],
        );
        // Released or purged between the two statements: claim again.
        if (existing.length === 0) continue;
        const row = existing[0];
        if (row.request_fingerprint !== fingerprint) return { outcome: 'conflict' };
        if (row.status === 'in_progress' || row.response_status === null || row.response_body === null) {
          return { outcome: 'in_progress' };
        }
        return { outcome: 'replay', status: row.response_status, response: row.response_body };
      }
      return { outcome: 'in_progress' };
    } catch (error) {
      throw asPersistenceError(error);
    }
  }

  /**
   * Takes the claims of `requests` that nobody holds, in one statement per shape of read (in
   * practice one: a route has one read), and answers each request's claim, or undefined when it
   * was not taken. A key asked for twice in the group goes in once: its later requests are not
   * taken here (one statement cannot claim a row twice) and find the first one's claim.
   */
  private async claimTogether(requests: ClaimRequest[]): Promise<Array<TakenClaim | undefined>> {
    const taken = new Array<TakenClaim | undefined>(requests.length);
    const firstOfKey = new Map<string, number>();
    const byShape = new Map<string, number[]>();
    requests.forEach((request, n) => {
      const { owner, routeKey, idempotencyKey } = request.scope;
      const key = JSON.stringify([owner, routeKey, idempotencyKey]);
      if (firstOfKey.has(key)) return;
      firstOfKey.set(key, n);
      const shape = request.read?.sql('i."read_args"') ?? '';
      byShape.set(shape, [...(byShape.get(shape) ?? []), n]);
    });
    await Promise.all(
      [...byShape].map(async ([read, indexes]) => {
        // Sorted by key: concurrent statements lock the rows they share in the same order.
        const sorted = [...indexes].sort((a, b) => compareScopes(requests[a].scope, requests[b].scope));
        const rows: Array<{ ord: number; id: string; claimed_at: string; read_with_claim?: unknown }> =
          await this.dataSource.query(
            `WITH "input" AS (
               SELECT * FROM unnest($3::text[], $4::text[], $5::text[], $6::text[], $7::jsonb[], $8::int[])
                 AS i("owner", "route_key", "idempotency_key", "request_fingerprint", "read_args", "ord")
             ), "claimed" AS (${CLAIM_INPUT})
             SELECT i."ord", c."id", c."claimed_at"${read ? `, (${read}) AS "read_with_claim"` : ''}
               FROM "claimed" c JOIN "input" i USING ("owner", "route_key", "idempotency_key")`,
            [
              this.config.IDEMPOTENCY_LEASE_MS,
              this.config.IDEMPOTENCY_TTL_HOURS,
              sorted.map((n) => requests[n].scope.owner),
              sorted.map((n) => requests[n].scope.routeKey),
              sorted.map((n) => requests[n].scope.idempotencyKey),
              sorted.map((n) => requests[n].fingerprint),
              sorted.map((n) => JSON.stringify(requests[n].read?.args ?? [])),
              sorted.map((_, ord) => ord),
            ],
          );
        for (const row of rows) {
          taken[sorted[row.ord]] = {
            claim: { id: row.id, claimedAt: row.claimed_at },
            ...(read ? { readWithClaim: row.read_with_claim } : {}),
          };
        }
      }),
    );
    return taken;
  }

  /** Stores the final response; replays of this key answer it until the record expires. */
  async complete(claim: IdempotencyClaim, status: number, response: StoredResponse): Promise<void> {
    const parameters: unknown[] = [];
    await this.dataSource.query(completionOf(claim, status, response, parameters), parameters);
  }

  /** Drops the claim (after a 5xx) so that a retry with the same key runs again. */
  async release(claim: IdempotencyClaim): Promise<void> {
    await this.dataSource.query(
      `DELETE FROM "gateway"."idempotency_records"
        WHERE "id" = $1 AND "created_at" = $2::timestamptz AND "status" = 'in_progress'`,
      [claim.id, claim.claimedAt],
    );
  }

  async purgeExpired(): Promise<number> {
    const result: [unknown, number] = await this.dataSource.query(
      `DELETE FROM "gateway"."idempotency_records" WHERE "expires_at" < now()`,
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
 * The UPDATE that completes `claim` with the response (`parameters` gets its values): only while
 * the claim is still the one taken at `claimedAt` (a claim taken over after its lease is not the
 * old holder's to complete), and, with `source`, only when that CTE has a row (RETURNING one when it did).
 */
export function completionOf(
  claim: IdempotencyClaim,
  status: number,
  response: StoredResponse,
  parameters: unknown[],
  source?: string,
): string {
  parameters.push(claim.id, claim.claimedAt, status, JSON.stringify(response));
  const n = parameters.length;
  return (
    `UPDATE "gateway"."idempotency_records"
        SET ${COMPLETED(`$${n - 1}`, `$${n}::jsonb`)}
      WHERE "id" = $${n - 3} AND "created_at" = $${n - 2}::timestamptz AND "status" = 'in_progress'` +
    (source === undefined ? '' : ` AND EXISTS (SELECT 1 FROM "${source}") RETURNING 1`)
  );
}

/**
 * The UPDATE that completes several claims at once, as completionOf does one: the claims of the
 * rows of `source` (a CTE with the columns "claim_id", "claimed_at", "response_status" and
 * "response_body", NULL where a row has no claim to complete) that its `where` condition keeps,
 * RETURNING the id of each claim it completed.
 */
export function completionsOf(source: string, where: string): string {
  return `UPDATE "gateway"."idempotency_records" AS r
        SET ${COMPLETED('c."response_status"', 'c."response_body"')}
       FROM "${source}" AS c
      WHERE c."claim_id" IS NOT NULL AND r."id" = c."claim_id" AND r."created_at" = c."claimed_at"
        AND r."status" = 'in_progress' AND (${where})
      RETURNING r."id"`;
}

/** The SET of a completion: the answer stored, the lease released. */
const COMPLETED = (status: string, body: string) =>
  `"status" = 'completed', "response_status" = ${status}, "response_body" = ${body}, "locked_until" = NULL`;
