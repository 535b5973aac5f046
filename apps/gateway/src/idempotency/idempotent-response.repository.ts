import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { asPersistenceError } from '@swapgw/persistence';
import { PeriodicWork } from '@swapgw/runtime';
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
 * one round trip to PostgreSQL less: a scalar subquery (one value, or NULL) whose values are
 * appended to `parameters` and referred to by position. Its answer reaches the handler only when
 * the claim is taken (`HeldIdempotencyClaim.readWithClaim`).
 */
export interface ReadWithClaim {
  sql(parameters: unknown[]): string;
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
 * The claim of ($1 owner, $2 route, $3 key) for the request of fingerprint $4, leased for $5 ms and
 * kept $6 hours, returning the claim when it was taken.
 */
const CLAIM = `INSERT INTO "gateway"."idempotency_records" AS r
     ("owner", "route_key", "idempotency_key", "request_fingerprint", "status", "created_at", "locked_until", "expires_at")
   VALUES ($1, $2, $3, $4, 'in_progress', clock_timestamp(),
           clock_timestamp() + make_interval(secs => $5::double precision / 1000),
           clock_timestamp() + make_interval(hours => $6::int))
   ON CONFLICT ("owner", "route_key", "idempotency_key") DO UPDATE SET
     "request_fingerprint" = EXCLUDED."request_fingerprint", "status" = 'in_progress',
     "response_status" = NULL, "response_body" = NULL, "created_at" = EXCLUDED."created_at",
     "locked_until" = EXCLUDED."locked_until", "expires_at" = EXCLUDED."expires_at"
   WHERE r."expires_at" < now()
      OR (r."status" = 'in_progress' AND r."locked_until" < now()
          AND r."request_fingerprint" = EXCLUDED."request_fingerprint")
   RETURNING "id", "created_at"::text AS "claimed_at"`;

/**
 * idempotency_records: the first request claims (owner, route, key) with one atomic INSERT ... ON
 * CONFLICT; every other request with the same scope reads the row and is replayed, rejected as a
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
      // A row is only taken over when it expired, or when its holder vanished (lease over) while
      // handling the very same request; anything else stays with its first claimant.
      for (let attempt = 0; attempt < 3; attempt++) {
        const parameters: unknown[] = [
          scope.owner,
          scope.routeKey,
          scope.idempotencyKey,
          fingerprint,
          this.config.IDEMPOTENCY_LEASE_MS,
          this.config.IDEMPOTENCY_TTL_HOURS,
        ];
        const alongside = readWithClaim ? `, (${readWithClaim.sql(parameters)}) AS "read_with_claim"` : '';
        const claimed: Array<{ id: string; claimed_at: string; read_with_claim?: unknown }> =
          await this.dataSource.query(
            `WITH "claimed" AS (${CLAIM}) SELECT "id", "claimed_at"${alongside} FROM "claimed"`,
            parameters,
          );
        if (claimed.length > 0) {
          const [row] = claimed;
          const claim = { id: row.id, claimedAt: row.claimed_at };
          return readWithClaim
            ? { outcome: 'claimed', claim, readWithClaim: row.read_with_claim ?? null }
            : { outcome: 'claimed', claim };
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
