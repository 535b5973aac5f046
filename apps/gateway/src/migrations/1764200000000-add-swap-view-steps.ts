import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The swap as a resource (GET /swap/{swapId}, GET /swaps): every step of the swap with its kind,
 * chain, status, transaction and times (`steps`), what the quote promised (`quoted`), and the index
 * that lists an owner's swaps newest first (keyset: created_at_ms, swap_id).
 */
export class AddSwapViewSteps1764200000000 implements MigrationInterface {
  name = 'AddSwapViewSteps1764200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE "gateway"."swap_views" ADD COLUMN "steps" jsonb NOT NULL DEFAULT '[]'::jsonb, ADD COLUMN "quoted" jsonb NULL`,
    );
    await q.query(
      `CREATE INDEX "swap_views_owner_newest" ON "gateway"."swap_views" ("owner", "created_at_ms" DESC, "swap_id" DESC)`,
    );
    await q.query(
      `CREATE INDEX "swap_views_owner_status_newest" ON "gateway"."swap_views" ("owner", "status", "created_at_ms" DESC, "swap_id" DESC)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "gateway"."swap_views_owner_status_newest"`);
    await q.query(`DROP INDEX "gateway"."swap_views_owner_newest"`);
    await q.query(`ALTER TABLE "gateway"."swap_views" DROP COLUMN "quoted", DROP COLUMN "steps"`);
  }
}
