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
 * one round trip to PostgreSQL less. Concurrent claims go in one statement (a group commit), so the
 * read is a scalar subquery over the claimed row: `sql(row)` may refer to the claim's
 * `${row}."owner"` and to the request's arguments `${row}."arg1"` … `${row}."arg<arity>"` (text).
 * One constant per kind of read: the statement's text depends on the read, not on the request.
 */
export interface ClaimRead {
  /** Names the read: claims with the same read share a statement. */
  readonly name: string;
  /** How many arguments a request gives it. */
  readonly arity: number;
  sql(row: string): string;
}

/** A request's read with its claim: which read, and its arguments. Its answer reaches the handler only when the claim is taken (`HeldIdempotencyClaim.readWithClaim`). */
export interface ReadWithClaim {
  read: ClaimRead;
  args: readonly string[];
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
 * Claims in one statement at most (each row a build's or an order's key), and such statements at
 * once: under a burst of builds, a thousand claims cost a handful of statements, commits and pooled
 * connections, not one each (issue 44: the claims were the command lane's waits).
 */
export const CLAIMS_PER_STATEMENT = 200;
const CLAIM_STATEMENTS_IN_FLIGHT = 2;

/** A claim to take: the scope, the request's fingerprint and, with a read, its arguments. */
interface ClaimToTake {
  scope: IdempotencyScope;
  fingerprint: string;
  args: readonly string[];
}

/** What the statement answered for a claim it took (a claim not taken: null). */
interface TakenClaim {
  claim: IdempotencyClaim;
  readWithClaim: unknown;
}

/**
 * The claims of the rows of `input` ($1 owners, $2 routes, $3 keys, $4 fingerprints; $7… the read's
 * arguments), each leased for $5 ms and kept $6 hours, returning each claim taken with its row's
 * ordinal `n` and, with `read`, its answer. A row is only taken over when it expired, or when its
 * holder vanished (lease over) while handling the very same request; anything else stays with its
 * first claimant. The rows are inserted in key order, so two statements with the same keys lock
 * them in the same order (no deadlock).
 */
function claimStatementOf(read: ClaimRead | undefined): string {
  const arity = read?.arity ?? 0;
  const argArrays = Array.from({ length: arity }, (_, i) => `, $${7 + i}::text[]`).join('');
  const argColumns = Array.from({ length: arity }, (_, i) => `, "arg${i + 1}"`).join('');
  return `WITH "input" AS (
      SELECT * FROM unnest($1::varchar[], $2::varchar[], $3::varchar[], $4::varchar[]${argArrays}) WITH ORDINALITY
        AS i("owner", "route_key", "idempotency_key", "request_fingerprint"${argColumns}, "n")),
    "claimed" AS (
      INSERT INTO "gateway"."idempotency_records" AS r
        ("owner", "route_key", "idempotency_key", "request_fingerprint", "status", "created_at", "locked_until", "expires_at")
      SELECT "owner", "route_key", "idempotency_key", "request_fingerprint", 'in_progress', clock_timestamp(),
             clock_timestamp() + make_interval(secs => $5::double precision / 1000),
             clock_timestamp() + make_interval(hours => $6::int)
        FROM "input" ORDER BY "owner", "route_key", "idempotency_key"
      ON CONFLICT ("owner", "route_key", "idempotency_key") DO UPDATE SET
        "request_fingerprint" = EXCLUDED."request_fingerprint", "status" = 'in_progress',
        "response_status" = NULL, "response_body" = NULL, "created_at" = EXCLUDED."created_at",
        "locked_until" = EXCLUDED."locked_until", "expires_at" = EXCLUDED."expires_at"
      WHERE r."expires_at" < now()
         OR (r."status" = 'in_progress' AND r."locked_until" < now()
             AND r."request_fingerprint" = EXCLUDED."request_fingerprint")
      RETURNING "id", "owner", "route_key", "idempotency_key", "created_at"::text AS "claimed_at")
    SELECT i."n", c."id", c."claimed_at"${read ? `, (${read.sql('i')}) AS "read_with_claim"` : ''}
      FROM "claimed" AS c JOIN "input" AS i USING ("owner", "route_key", "idempotency_key")`;
}

/**
 * idempotency_records: the first request claims (owner, route, key) with one atomic INSERT ... ON
 * CONFLICT; every other request with the same scope reads the row and is replayed, rejected as a
 * conflict, or told the first is still in progress.
 */
@Injectable()
export class IdempotentResponseRepository implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(IdempotentResponseRepository.name);
  /** The claims being grouped into statements, per read (by name; '' for none). */
  private readonly groupedClaims = new Map<string, GroupedWrites<ClaimToTake, TakenClaim | null>>();
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
   * Concurrent claims (with the same read, or none) share a statement.
   */
  async claim(
    scope: IdempotencyScope,
    fingerprint: string,
    readWithClaim?: ReadWithClaim,
  ): Promise<ClaimOutcome> {
    const toTake: ClaimToTake = { scope, fingerprint, args: readWithClaim?.args ?? [] };
    try {
      let taken = await this.claimsWith(readWithClaim?.read).add(toTake);
      // Not taken: the key is someone else's, or was when the statement ran. A row released or
      // purged between the two statements below is claimed again, alone.
      for (let attempt = 0; taken === null && attempt < 3; attempt++) {
        const existing: ExistingRow[] = await this.dataSource.query(
          `SELECT "request_fingerprint", "status", "response_status", "response_body"
             FROM "gateway"."idempotency_records"
            WHERE "owner" = $1 AND "route_key" = $2 AND "idempotency_key" = $3`,
          [scope.owner, scope.routeKey, scope.idempotencyKey],
        );
        if (existing.length > 0) return outcomeOf(existing[0], fingerprint);
        [taken] = await this.takeClaims(readWithClaim?.read, [toTake]);
      }
      if (taken === null) return { outcome: 'in_progress' };
      return readWithClaim
        ? { outcome: 'claimed', claim: taken.claim, readWithClaim: taken.readWithClaim ?? null }
        : { outcome: 'claimed', claim: taken.claim };
    } catch (error) {
      throw asPersistenceError(error);
    }
  }

  /** The grouped claims of `read` (or of no read): one writer, so one statement text, per read. */
  private claimsWith(read: ClaimRead | undefined): GroupedWrites<ClaimToTake, TakenClaim | null> {
    const name = read?.name ?? '';
    let writes = this.groupedClaims.get(name);
    if (!writes) {
      writes = new GroupedWrites<ClaimToTake, TakenClaim | null>({
        maxBatch: CLAIMS_PER_STATEMENT,
        maxInFlight: CLAIM_STATEMENTS_IN_FLIGHT,
        // A command its client waits on: the claims go first (the interceptor's lane, which a
        // batch, written outside its callers' contexts, does not inherit).
        write: (claims) => withConnectionPriority('command', () => this.takeClaims(read, claims)),
      });
      this.groupedClaims.set(name, writes);
    }
    return writes;
  }

  /**
   * Takes the claims it can, in one statement, and answers each (null: not taken). A key asked
   * for twice in one batch (a client's concurrent retries) is in the statement once, since
   * ON CONFLICT cannot change a row twice in one statement; its repeats are tried after it, alone, and
   * find it taken.
   */
  private async takeClaims(
    read: ClaimRead | undefined,
    claims: ClaimToTake[],
  ): Promise<(TakenClaim | null)[]> {
    // Each claim's row in the statement (its ordinal), or undefined for a key already in it.
    const ordinals: (number | undefined)[] = [];
    const inStatement: ClaimToTake[] = [];
    const keys = new Set<string>();
    for (const claim of claims) {
      const key = JSON.stringify([claim.scope.owner, claim.scope.routeKey, claim.scope.idempotencyKey]);
      if (keys.has(key)) {
        ordinals.push(undefined);
        continue;
      }
      keys.add(key);
      inStatement.push(claim);
      ordinals.push(inStatement.length);
    }
    const parameters: unknown[] = [
      inStatement.map((claim) => claim.scope.owner),
      inStatement.map((claim) => claim.scope.routeKey),
      inStatement.map((claim) => claim.scope.idempotencyKey),
      inStatement.map((claim) => claim.fingerprint),
      this.config.IDEMPOTENCY_LEASE_MS,
      this.config.IDEMPOTENCY_TTL_HOURS,
      ...Array.from({ length: read?.arity ?? 0 }, (_, i) =>
        inStatement.map((claim) => claim.args[i] ?? null),
      ),
    ];
    const rows: Array<{ n: string; id: string; claimed_at: string; read_with_claim?: unknown }> =
      await this.dataSource.query(claimStatementOf(read), parameters);
    const byOrdinal = new Map(rows.map((row) => [Number(row.n), row]));
    const answers: (TakenClaim | null)[] = [];
    for (const [index, claim] of claims.entries()) {
      const ordinal = ordinals[index];
      if (ordinal === undefined) {
        answers.push((await this.takeClaims(read, [claim]))[0]);
        continue;
      }
      const row = byOrdinal.get(ordinal);
      answers.push(
        row ? { claim: { id: row.id, claimedAt: row.claimed_at }, readWithClaim: row.read_with_claim } : null,
      );
    }
    return answers;
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
/** What an earlier request with the key left, to a request of `fingerprint`. */
function outcomeOf(row: ExistingRow, fingerprint: string): ClaimOutcome {
  if (row.request_fingerprint !== fingerprint) return { outcome: 'conflict' };
  if (row.status === 'in_progress' || row.response_status === null || row.response_body === null)
    return { outcome: 'in_progress' };
  return { outcome: 'replay', status: row.response_status, response: row.response_body };
}

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
