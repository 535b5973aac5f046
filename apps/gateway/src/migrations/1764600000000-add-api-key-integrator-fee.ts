import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The operator's default integrator fee of an API key (`npm run keys -- set-fee`): a JSON array of
 * { bps, recipient }, used by POST /quote when the request has no integratorFee; NULL: none.
 */
export class AddApiKeyIntegratorFee1764600000000 implements MigrationInterface {
  name = 'AddApiKeyIntegratorFee1764600000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "gateway"."api_keys" ADD COLUMN "integrator_fee" jsonb NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "gateway"."api_keys" DROP COLUMN "integrator_fee"`);
  }
}
