import { MigrationInterface, QueryRunner } from 'typeorm';

/** Catalog of quote-service: chains, tokens, pairs and the sync state of token sources. */
export class CreateCatalogTables1763710000000 implements MigrationInterface {
  name = 'CreateCatalogTables1763710000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "chains" (
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
      CREATE TABLE "tokens" (
        "id" bigserial PRIMARY KEY,
        "chain" text NOT NULL REFERENCES "chains"("id"),
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
    await queryRunner.query(`CREATE UNIQUE INDEX "tokens_chain_asset_key" ON "tokens" ("chain", "asset_key")`);
    // Symbol look-ups of quotes and the q filter of listings.
    await queryRunner.query(`CREATE INDEX "tokens_chain_symbol" ON "tokens" ("chain", upper("symbol"))`);
    await queryRunner.query(`CREATE INDEX "tokens_top" ON "tokens" ("rank", "id")`);
    await queryRunner.query(`
      CREATE TABLE "pairs" (
        "id" bigserial PRIMARY KEY,
        "from_chain" text NOT NULL REFERENCES "chains"("id"),
        "to_chain" text NOT NULL REFERENCES "chains"("id"),
        "token_in" text NOT NULL,
        "token_out" text NOT NULL,
        "providers" jsonb NOT NULL DEFAULT '[]',
        "supported" boolean NOT NULL,
        "updated_at_ms" bigint NOT NULL
      )`);
    await queryRunner.query(`CREATE UNIQUE INDEX "pairs_identity" ON "pairs" ("from_chain", "to_chain", "token_in", "token_out")`);
    await queryRunner.query(`
      CREATE TABLE "token_sources" (
        "name" text PRIMARY KEY,
        "status" text NOT NULL CHECK ("status" IN ('ok', 'failed')),
        "token_count" integer NOT NULL DEFAULT 0,
        "last_success_at_ms" bigint,
        "last_attempt_at_ms" bigint NOT NULL,
        "last_error" text
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "token_sources"`);
    await queryRunner.query(`DROP TABLE "pairs"`);
    await queryRunner.query(`DROP TABLE "tokens"`);
    await queryRunner.query(`DROP TABLE "chains"`);
  }
}
