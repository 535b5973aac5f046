import { MigrationInterface, QueryRunner } from 'typeorm';

/** The planner's swaps and their signing steps (schema `planner`). */
export class CreateSwaps1763740000000 implements MigrationInterface {
  name = 'CreateSwaps1763740000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "planner"."swaps" (
        "id" uuid PRIMARY KEY,
        "owner" text NOT NULL,
        "quote_id" text NOT NULL,
        "route_id" text NOT NULL,
        "user_address" text NOT NULL,
        "recipient" text NULL,
        "from_chain" text NOT NULL,
        "to_chain" text NOT NULL,
        "status" text NOT NULL CHECK ("status" IN ('planning', 'awaiting_signature', 'submitted', 'confirming', 'completed', 'failed', 'expired')),
        "current_step" int NOT NULL,
        "step_count" int NOT NULL CHECK ("step_count" >= 1),
        "request_fingerprint" text NOT NULL,
        "failure_reason" text NULL,
        "failure_details" jsonb NULL,
        "created_at_ms" bigint NOT NULL,
        "updated_at_ms" bigint NOT NULL,
        "expires_at_ms" bigint NOT NULL,
        CHECK ("current_step" BETWEEN 1 AND "step_count")
      )`);
    await queryRunner.query(`CREATE INDEX "swaps_owner_idx" ON "planner"."swaps" ("owner", "created_at_ms")`);
    await queryRunner.query(`
      CREATE TABLE "planner"."swap_steps" (
        "id" text PRIMARY KEY,
        "swap_id" uuid NOT NULL REFERENCES "planner"."swaps" ("id") ON DELETE CASCADE,
        "step_index" int NOT NULL CHECK ("step_index" >= 1),
        "leg_index" int NOT NULL,
        "kind" text NOT NULL CHECK ("kind" IN ('approve', 'swap', 'bridge')),
        "chain" text NOT NULL,
        "call" jsonb NOT NULL,
        "approve" jsonb NULL,
        "wait_for" jsonb NULL,
        "status" text NOT NULL CHECK ("status" IN ('pending', 'building', 'ready', 'submitted', 'confirmed', 'failed', 'expired', 'skipped')),
        "signing_request_id" text NULL,
        "payload_expires_at_ms" bigint NULL,
        "tx_hash" text NULL,
        "failure_reason" text NULL,
        "updated_at_ms" bigint NOT NULL,
        CONSTRAINT "swap_steps_swap_index_key" UNIQUE ("swap_id", "step_index")
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE IF EXISTS "planner"."swap_steps"`);
    await queryRunner.query(`DROP TABLE IF EXISTS "planner"."swaps"`);
  }
}
