import { MigrationInterface, QueryRunner } from 'typeorm';
import { quoteSchemaOf } from '../database/quote-tables';

/** The migrated schema, quoted: `quote` in the app, a schema of their own in tests. */
const schemaOf = (queryRunner: QueryRunner): string => `"${quoteSchemaOf(queryRunner.connection)}"`;

/** Quotes and the executable plan of each of their routes. */
export class CreateQuoteTables1763710100000 implements MigrationInterface {
  name = 'CreateQuoteTables1763710100000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const s = schemaOf(queryRunner);
    await queryRunner.query(`
      CREATE TABLE ${s}."quotes" (
        "id" text PRIMARY KEY,
        "owner" text,
        "from_chain" text NOT NULL,
        "to_chain" text NOT NULL,
        "token_in" text NOT NULL,
        "token_out" text NOT NULL,
        "amount_in" numeric(78, 0) NOT NULL,
        "slippage_bps" integer NOT NULL,
        "recipient" text,
        "request" jsonb NOT NULL,
        "provider_outcomes" jsonb NOT NULL,
        "created_at_ms" bigint NOT NULL,
        "expires_at_ms" bigint NOT NULL
      )`);
    // Expired quotes are pruned by age.
    await queryRunner.query(`CREATE INDEX "quotes_expires_at" ON ${s}."quotes" ("expires_at_ms")`);
    await queryRunner.query(`
      CREATE TABLE ${s}."quote_routes" (
        "route_id" text PRIMARY KEY,
        "quote_id" text NOT NULL REFERENCES ${s}."quotes"("id") ON DELETE CASCADE,
        "rank" integer NOT NULL,
        "summary" jsonb NOT NULL,
        "plan" jsonb NOT NULL
      )`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "quote_routes_quote_rank" ON ${s}."quote_routes" ("quote_id", "rank")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const s = schemaOf(queryRunner);
    await queryRunner.query(`DROP TABLE ${s}."quote_routes"`);
    await queryRunner.query(`DROP TABLE ${s}."quotes"`);
  }
}
