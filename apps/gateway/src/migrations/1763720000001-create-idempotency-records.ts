import { MigrationInterface, QueryRunner } from 'typeorm';

/** One row per (owner, route, Idempotency-Key): the claim, then the stored response. */
export class CreateIdempotencyRecords1763720000001 implements MigrationInterface {
  name = 'CreateIdempotencyRecords1763720000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE "gateway"."idempotency_records" (
        "id" uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        "owner" varchar(200) NOT NULL,
        "route_key" varchar(300) NOT NULL,
        "idempotency_key" varchar(200) NOT NULL,
        "request_fingerprint" char(64) NOT NULL,
        "status" varchar(16) NOT NULL CHECK ("status" IN ('in_progress', 'completed')),
        "response_status" integer NULL,
        "response_body" jsonb NULL,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "locked_until" timestamptz NULL,
        "expires_at" timestamptz NOT NULL
      )`);
    await q.query(
      `CREATE UNIQUE INDEX "idempotency_records_scope_uq" ON "gateway"."idempotency_records" ("owner", "route_key", "idempotency_key")`,
    );
    await q.query(
      `CREATE INDEX "idempotency_records_expires_idx" ON "gateway"."idempotency_records" ("expires_at")`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "gateway"."idempotency_records"`);
  }
}
