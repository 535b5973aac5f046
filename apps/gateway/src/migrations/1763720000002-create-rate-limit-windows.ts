import { MigrationInterface, QueryRunner } from 'typeorm';

/** Fixed-window request counters per API key, shared by every gateway instance. */
export class CreateRateLimitWindows1763720000002 implements MigrationInterface {
  name = 'CreateRateLimitWindows1763720000002';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE "gateway"."rate_limit_windows" (
        "api_key_id" uuid NOT NULL,
        "window_start" timestamptz NOT NULL,
        "request_count" integer NOT NULL,
        PRIMARY KEY ("api_key_id", "window_start")
      )`);
    await q.query(
      `CREATE INDEX "rate_limit_windows_start_idx" ON "gateway"."rate_limit_windows" ("window_start")`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "gateway"."rate_limit_windows"`);
  }
}
