import { schemaOf } from '@swapgw/messaging';
import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Requests on Bitcoin chains carry a `bitcoin` spec (the bridge deposit to build as a PSBT) instead
 * of an EVM call or a Solana spec.
 */
export class AddBitcoinRequests1764820000000 implements MigrationInterface {
  name = 'AddBitcoinRequests1764820000000';

  async up(q: QueryRunner): Promise<void> {
    const requests = `"${schemaOf(q.connection)}"."signing_requests"`;
    await q.query(`ALTER TABLE ${requests} ADD COLUMN "bitcoin" jsonb`);
    await q.query(`ALTER TABLE ${requests} DROP CONSTRAINT "signing_requests_call_solana_or_sponsored"`);
    await q.query(
      `ALTER TABLE ${requests} ADD CONSTRAINT "signing_requests_have_a_spec" CHECK ("call" IS NOT NULL OR "solana" IS NOT NULL OR "bitcoin" IS NOT NULL OR "sponsored" IS NOT NULL)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    const requests = `"${schemaOf(q.connection)}"."signing_requests"`;
    // Bitcoin requests cannot be expressed without the column: they go with it.
    await q.query(`DELETE FROM ${requests} WHERE "bitcoin" IS NOT NULL`);
    await q.query(`ALTER TABLE ${requests} DROP CONSTRAINT "signing_requests_have_a_spec"`);
    await q.query(
      `ALTER TABLE ${requests} ADD CONSTRAINT "signing_requests_call_solana_or_sponsored" CHECK ("call" IS NOT NULL OR "solana" IS NOT NULL OR "sponsored" IS NOT NULL)`,
    );
    await q.query(`ALTER TABLE ${requests} DROP COLUMN "bitcoin"`);
  }
}
