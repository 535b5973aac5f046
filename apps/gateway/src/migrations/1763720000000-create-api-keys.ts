import { MigrationInterface, QueryRunner } from 'typeorm';

/** API keys: only the SHA-256 of a key is stored; the prefix finds the row without a full scan. */
export class CreateApiKeys1763720000000 implements MigrationInterface {
  name = 'CreateApiKeys1763720000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE "gateway"."api_keys" (
        "id" uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        "prefix" varchar(16) NOT NULL,
        "key_hash" char(64) NOT NULL,
        "owner" varchar(200) NOT NULL,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "revoked_at" timestamptz NULL
      )`);
    await q.query(`CREATE UNIQUE INDEX "api_keys_prefix_uq" ON "gateway"."api_keys" ("prefix")`);
    await q.query(`CREATE INDEX "api_keys_owner_idx" ON "gateway"."api_keys" ("owner")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "gateway"."api_keys"`);
  }
}
