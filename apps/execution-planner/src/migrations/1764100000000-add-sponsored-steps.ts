import { schemaOf } from '@swapgw/messaging';
import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Gas sponsorship: a step records how the service pays its gas (`sponsored`, the SponsoredStepSpec
 * sent to signer-surface). A step the user signs as typed data (an EIP-2612 permit, a Permit2
 * witness) has no call of its own, so a step carries a call, a Solana spec or a sponsored spec.
 */
export class AddSponsoredSteps1764100000000 implements MigrationInterface {
  name = 'AddSponsoredSteps1764100000000';

  async up(q: QueryRunner): Promise<void> {
    const steps = `"${schemaOf(q.connection)}"."swap_steps"`;
    await q.query(`ALTER TABLE ${steps} ADD COLUMN "sponsored" jsonb`);
    await q.query(`ALTER TABLE ${steps} DROP CONSTRAINT "swap_steps_call_or_solana"`);
    await q.query(
      `ALTER TABLE ${steps} ADD CONSTRAINT "swap_steps_call_solana_or_sponsored" CHECK ("call" IS NOT NULL OR "solana" IS NOT NULL OR "sponsored" IS NOT NULL)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    const steps = `"${schemaOf(q.connection)}"."swap_steps"`;
    await q.query(`DELETE FROM ${steps} WHERE "call" IS NULL AND "solana" IS NULL`);
    await q.query(`ALTER TABLE ${steps} DROP CONSTRAINT "swap_steps_call_solana_or_sponsored"`);
    await q.query(
      `ALTER TABLE ${steps} ADD CONSTRAINT "swap_steps_call_or_solana" CHECK ("call" IS NOT NULL OR "solana" IS NOT NULL)`,
    );
    await q.query(`ALTER TABLE ${steps} DROP COLUMN "sponsored"`);
  }
}
