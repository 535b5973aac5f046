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

export type ClaimOutcome =
  | { outcome: 'claimed'; claim: IdempotencyClaim }
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

  async claim(scope: IdempotencyScope, fingerprint: string): Promise<ClaimOutcome> {
    try {
      // A row is only taken over when it expired, or when its holder vanished (lease over) while
      // handling the very same request; anything else stays with its first claimant.
      for (let attempt = 0; attempt < 3; attempt++) {
        const claimed: Array<{ id: string; claimed_at: string }> = await this.dataSource.query(
          `INSERT INTO "gateway"."idempotency_records" AS r
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
           RETURNING "id", "created_at"::text AS "claimed_at"`,
          [
            scope.owner,
            scope.routeKey,
            scope.idempotencyKey,
            fingerprint,
            this.config.IDEMPOTENCY_LEASE_MS,
            this.config.IDEMPOTENCY_TTL_HOURS,
          ],
        );
        if (claimed.length > 0)
          return { outcome: 'claimed', claim: { id: claimed[0].id, claimedAt: claimed[0].claimed_at } };

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
    await this.dataSource.query(
      `UPDATE "gateway"."idempotency_records"
          SET "status" = 'completed', "response_status" = $3, "response_body" = $4::jsonb, "locked_until" = NULL
        WHERE "id" = $1 AND "created_at" = $2::timestamptz AND "status" = 'in_progress'`,
      [claim.id, claim.claimedAt, status, JSON.stringify(response)],
    );
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
