import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The swap read model: one row per swap, projected from swap.events, read by the build wait and by
 * GET /swap/{swapId}/signing on any gateway instance.
 */
export class CreateSwapViews1763725000000 implements MigrationInterface {
  name = 'CreateSwapViews1763725000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE "gateway"."swap_views" (
        "swap_id" uuid PRIMARY KEY,
        "owner" varchar(200) NOT NULL,
        "status" varchar(32) NOT NULL,
        "step_current" integer NULL,
        "step_total" integer NULL,
        "payload" jsonb NULL,
        "expires_at_ms" bigint NULL,
        "ready_at_ms" bigint NULL,
        "execution_hints" jsonb NULL,
        "client_hints" jsonb NULL,
        "pending_reason" text NULL,
        "last_tx_hash" varchar(100) NULL,
        "failure_reason" varchar(100) NULL,
        "failure_details" jsonb NULL,
        "created_at_ms" bigint NOT NULL,
        "updated_at_ms" bigint NOT NULL
      )`);
    await q.query(`CREATE INDEX "swap_views_owner_idx" ON "gateway"."swap_views" ("owner", "created_at_ms")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "gateway"."swap_views"`);
  }
}
