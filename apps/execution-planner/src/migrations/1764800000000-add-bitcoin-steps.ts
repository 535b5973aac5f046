import { schemaOf } from '@swapgw/messaging';
import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Steps on Bitcoin: a step carries a `bitcoin` spec (the bridge deposit signer-surface builds as a
 * PSBT) instead of an EVM call or a Solana spec.
 */
export class AddBitcoinSteps1764800000000 implements MigrationInterface {
  name = 'AddBitcoinSteps1764800000000';

  async up(q: QueryRunner): Promise<void> {
    const steps = `"${schemaOf(q.connection)}"."swap_steps"`;
    await q.query(`ALTER TABLE ${steps} ADD COLUMN "bitcoin" jsonb`);
    await q.query(`ALTER TABLE ${steps} DROP CONSTRAINT "swap_steps_call_solana_or_sponsored"`);
    await q.query(
      `ALTER TABLE ${steps} ADD CONSTRAINT "swap_steps_have_a_spec" CHECK ("call" IS NOT NULL OR "solana" IS NOT NULL OR "bitcoin" IS NOT NULL OR "sponsored" IS NOT NULL)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    const steps = `"${schemaOf(q.connection)}"."swap_steps"`;
    // Bitcoin steps cannot be expressed without the column: they go with it.
    await q.query(`DELETE FROM ${steps} WHERE "bitcoin" IS NOT NULL`);
    await q.query(`ALTER TABLE ${steps} DROP CONSTRAINT "swap_steps_have_a_spec"`);
    await q.query(
      `ALTER TABLE ${steps} ADD CONSTRAINT "swap_steps_call_solana_or_sponsored" CHECK ("call" IS NOT NULL OR "solana" IS NOT NULL OR "sponsored" IS NOT NULL)`,
    );
    await q.query(`ALTER TABLE ${steps} DROP COLUMN "bitcoin"`);
  }
}
