import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The quotes this gateway served, with every route's executable plan: POST /swap/build answers an
 * unknown quote, an unknown route and an expired quote at once from here, and sends the chosen plan
 * in the build command, so no build waits on quote-service or the planner for its verdict.
 */
export class CreateServedQuotes1764000000000 implements MigrationInterface {
  name = 'CreateServedQuotes1764000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "gateway"."served_quotes" (
      "quote_id" varchar(64) PRIMARY KEY,
      "owner" varchar(200) NOT NULL,
      "expires_at_ms" bigint NOT NULL,
      "route_plans" jsonb NOT NULL,
      "created_at_ms" bigint NOT NULL
    )`);
    await q.query(
      `CREATE INDEX "served_quotes_expires_at_ms" ON "gateway"."served_quotes" ("expires_at_ms")`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "gateway"."served_quotes"`);
  }
}
