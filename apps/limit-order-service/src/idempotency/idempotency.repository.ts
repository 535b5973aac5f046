import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { CodedError, ErrorCodes } from '@swapgw/contracts';
import { canonicalFingerprint } from '@swapgw/runtime';

export interface IdempotencyScope {
  owner: string;
  /** What the key was used for: `create`, `replace`, `cancel`. */
  operation: string;
  key: string;
  /** Everything of the request that must match on a retry. */
  request: unknown;
}

export type IdempotentOutcome<T> = { replayed: false; response: T } | { replayed: true; response: T };

/**
 * Idempotency inside the caller's transaction: the record (owner, operation, key) is inserted
 * first, with ON CONFLICT DO NOTHING, so a concurrent duplicate blocks on the primary key until the
 * first transaction ends; then it either replays the committed response or, if the first rolled
 * back, goes on as the first. The record and the order write commit together, so exactly one
 * order exists per key, and a record never exists without its response.
 */
@Injectable()
export class IdempotencyRepository {
  async run<T>(
    manager: EntityManager,
    scope: IdempotencyScope,
    nowMs: number,
    work: () => Promise<T>,
  ): Promise<IdempotentOutcome<T>> {
    const fingerprint = canonicalFingerprint(scope.request);
    const inserted: unknown[] = await manager.query(
      `INSERT INTO "limit_order"."idempotency_records" ("owner", "operation", "key", "fingerprint", "response", "created_at_ms")
       VALUES ($1, $2, $3, $4, 'null'::jsonb, $5)
       ON CONFLICT ("owner", "operation", "key") DO NOTHING
       RETURNING "key"`,
      [scope.owner, scope.operation, scope.key, fingerprint, nowMs],
    );
    if (inserted.length === 0) {
      const [existing] = (await manager.query(
        `SELECT "fingerprint", "response" FROM "limit_order"."idempotency_records"
         WHERE "owner" = $1 AND "operation" = $2 AND "key" = $3`,
        [scope.owner, scope.operation, scope.key],
      )) as Array<{ fingerprint: string; response: T }>;
      if (existing.fingerprint !== fingerprint) {
        throw new CodedError(
          ErrorCodes.IDEMPOTENCY_CONFLICT,
          'This Idempotency-Key was already used with a different request',
          { operation: scope.operation },
        );
      }
      return { replayed: true, response: existing.response };
    }
    const response = await work();
    await manager.query(
      `UPDATE "limit_order"."idempotency_records" SET "response" = $4::jsonb
       WHERE "owner" = $1 AND "operation" = $2 AND "key" = $3`,
      [scope.owner, scope.operation, scope.key, JSON.stringify(response)],
    );
    return { replayed: false, response };
  }

  /** A committed record for this scope, read outside any transaction (fast path before slow work). */
  async peek<T>(manager: EntityManager, scope: IdempotencyScope): Promise<IdempotentOutcome<T> | null> {
    const rows = (await manager.query(
      `SELECT "fingerprint", "response" FROM "limit_order"."idempotency_records"
       WHERE "owner" = $1 AND "operation" = $2 AND "key" = $3`,
      [scope.owner, scope.operation, scope.key],
    )) as Array<{ fingerprint: string; response: T }>;
    if (rows.length === 0) return null;
    if (rows[0].fingerprint !== canonicalFingerprint(scope.request)) {
      throw new CodedError(
        ErrorCodes.IDEMPOTENCY_CONFLICT,
        'This Idempotency-Key was already used with a different request',
        {
          operation: scope.operation,
        },
      );
    }
    return { replayed: true, response: rows[0].response };
  }
}
