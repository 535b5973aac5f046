import { MigrationInterface, QueryRunner } from 'typeorm';
import { quoteSchemaOf } from '../database/quote-tables';

/** The migrated schema, quoted: `quote` in the app, a schema of their own in tests. */
const schemaOf = (queryRunner: QueryRunner): string => `"${quoteSchemaOf(queryRunner.connection)}"`;

/** Catalog of quote-service: chains, tokens, pairs and the sync state of token sources. */
export class CreateCatalogTables1763710000000 implements MigrationInterface {
  name = 'CreateCatalogTables1763710000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const s = schemaOf(queryRunner);
    await queryRunner.query(`
      CREATE TABLE ${s}."chains" (
        "id" text PRIMARY KEY,
        "name" text NOT NULL,
        "family" text NOT NULL,
        "network" text NOT NULL,
        "evm_chain_id" integer,
        "caip2" text NOT NULL,
        "native_symbol" text NOT NULL,
        "signing_surface" boolean NOT NULL,
        "position" integer NOT NULL,
        "updated_at_ms" bigint NOT NULL
      )`);
    await queryRunner.query(`
      CREATE TABLE ${s}."tokens" (
        "id" bigserial PRIMARY KEY,
        "chain" text NOT NULL REFERENCES ${s}."chains"("id"),
        "symbol" text NOT NULL,
        "name" text NOT NULL,
        "decimals" integer NOT NULL CHECK ("decimals" BETWEEN 0 AND 255),
        "address" text,
        "mint" text,
        "asset_key" text NOT NULL,
        "logo_url" text,
        "rank" integer NOT NULL,
        "bridged_chains" integer NOT NULL DEFAULT 0,
        "quote_count" bigint NOT NULL DEFAULT 0,
        "supported" boolean NOT NULL,
        "providers" jsonb NOT NULL DEFAULT '[]',
        "source" text NOT NULL,
        "updated_at_ms" bigint NOT NULL
      )`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "tokens_chain_asset_key" ON ${s}."tokens" ("chain", "asset_key")`,
    );
    // Symbol look-ups of quotes and the q filter of listings.
    await queryRunner.query(`CREATE INDEX "tokens_chain_symbol" ON ${s}."tokens" ("chain", upper("symbol"))`);
    await queryRunner.query(`CREATE INDEX "tokens_top" ON ${s}."tokens" ("rank", "id")`);
    await queryRunner.query(`
      CREATE TABLE ${s}."pairs" (
        "id" bigserial PRIMARY KEY,
        "from_chain" text NOT NULL REFERENCES ${s}."chains"("id"),
        "to_chain" text NOT NULL REFERENCES ${s}."chains"("id"),
        "token_in" text NOT NULL,
        "token_out" text NOT NULL,
        "providers" jsonb NOT NULL DEFAULT '[]',
        "supported" boolean NOT NULL,
        "updated_at_ms" bigint NOT NULL
      )`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "pairs_identity" ON ${s}."pairs" ("from_chain", "to_chain", "token_in", "token_out")`,
    );
    await queryRunner.query(`
      CREATE TABLE ${s}."token_sources" (
        "name" text PRIMARY KEY,
        "status" text NOT NULL CHECK ("status" IN ('ok', 'failed')),
        "token_count" integer NOT NULL DEFAULT 0,
        "last_success_at_ms" bigint,
        "last_attempt_at_ms" bigint NOT NULL,
        "last_error" text
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const s = schemaOf(queryRunner);
    await queryRunner.query(`DROP TABLE ${s}."token_sources"`);
    await queryRunner.query(`DROP TABLE ${s}."pairs"`);
    await queryRunner.query(`DROP TABLE ${s}."tokens"`);
    await queryRunner.query(`DROP TABLE ${s}."chains"`);
  }
}
