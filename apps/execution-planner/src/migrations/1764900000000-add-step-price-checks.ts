import { schemaOf } from '@swapgw/messaging';
import { MigrationInterface, QueryRunner } from 'typeorm';

const STATUSES_BEFORE = `'pending', 'building', 'ready', 'submitted', 'confirmed', 'failed', 'expired', 'skipped'`;

/**
 * Prices re-checked before a later leg spends (issue 30, point 6): a step may carry the
 * `quote.reprice` request to ask before it is prepared (`price_check`), and waits for the answer
 * in the new status `repricing`.
 */
export class AddStepPriceChecks1764900000000 implements MigrationInterface {
  name = 'AddStepPriceChecks1764900000000';

  async up(q: QueryRunner): Promise<void> {
    const steps = `"${schemaOf(q.connection)}"."swap_steps"`;
    await q.query(`ALTER TABLE ${steps} ADD COLUMN "price_check" jsonb`);
    await q.query(`ALTER TABLE ${steps} DROP CONSTRAINT "swap_steps_status_check"`);
    await q.query(
      `ALTER TABLE ${steps} ADD CONSTRAINT "swap_steps_status_check" CHECK ("status" IN (${STATUSES_BEFORE}, 'repricing'))`,
    );
    // The price checker's poll: the few steps waiting, oldest first.
    await q.query(
      `CREATE INDEX "swap_steps_repricing_idx" ON ${steps} ("updated_at_ms") WHERE "status" = 'repricing'`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    const steps = `"${schemaOf(q.connection)}"."swap_steps"`;
    // A step waiting for its price goes back to being prepared as it was planned.
    await q.query(`DROP INDEX "${schemaOf(q.connection)}"."swap_steps_repricing_idx"`);
    await q.query(`UPDATE ${steps} SET "status" = 'building' WHERE "status" = 'repricing'`);
    await q.query(`ALTER TABLE ${steps} DROP CONSTRAINT "swap_steps_status_check"`);
    await q.query(
      `ALTER TABLE ${steps} ADD CONSTRAINT "swap_steps_status_check" CHECK ("status" IN (${STATUSES_BEFORE}))`,
    );
    await q.query(`ALTER TABLE ${steps} DROP COLUMN "price_check"`);
  }
}
