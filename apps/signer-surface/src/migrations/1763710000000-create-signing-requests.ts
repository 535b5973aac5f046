import { schemaOf } from '@swapgw/messaging';
import { MigrationInterface, QueryRunner } from 'typeorm';

/** signing_requests: every payload issued, its expiry, the signed artifact and its confirmation. */
export class CreateSigningRequests1763710000000 implements MigrationInterface {
  name = 'CreateSigningRequests1763710000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // Qualified with the DataSource's schema: TypeORM does not set search_path for us.
    const s = schemaOf(queryRunner.connection);
    await queryRunner.query(`
      CREATE TABLE "${s}"."signing_requests" (
        "id" uuid PRIMARY KEY,
        "swap_id" text NOT NULL,
        "step_id" text NOT NULL,
        "step_index" int NOT NULL,
        "step_count" int NOT NULL,
        "chain" text NOT NULL,
        "kind" text NOT NULL CHECK ("kind" IN ('approve', 'swap', 'bridge')),
        "from" text NOT NULL,
        "call" jsonb NOT NULL,
        "approve" jsonb,
        "wait_for" jsonb,
        "payload" jsonb,
        "execution_hints" jsonb,
        "client_hints" jsonb,
        "issued_at" timestamptz,
        "expires_at_ms" bigint,
        "ready_at_ms" bigint,
        "next_check_at_ms" bigint,
        "wait_deadline_ms" bigint,
        "status" text NOT NULL CHECK ("status" IN
          ('waiting', 'ready', 'submitted', 'confirmed', 'failed', 'expired', 'superseded', 'skipped', 'unavailable')),
        "raw_tx" text,
        "tx_hash" text,
        "confirmations" int NOT NULL DEFAULT 0,
        "block_number" bigint,
        "failure_code" text,
        "failure_reason" text,
        "broadcast_at" timestamptz,
        "confirmed_at_ms" bigint,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "updated_at" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT "uq_signing_requests_tx_hash" UNIQUE ("tx_hash")
      )`);
    // One live request per step; superseded rows are history.
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_signing_requests_live_step" ON "${s}"."signing_requests" ("swap_id", "step_id") WHERE "status" <> 'superseded'`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_signing_requests_swap" ON "${s}"."signing_requests" ("swap_id", "step_index", "created_at")`,
    );
    // The confirmation tracker and the waiting poller scan these two statuses only.
    await queryRunner.query(
      `CREATE INDEX "ix_signing_requests_due" ON "${s}"."signing_requests" ("status", "next_check_at_ms") WHERE "status" IN ('waiting', 'submitted')`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "${schemaOf(queryRunner.connection)}"."signing_requests"`);
  }
}
