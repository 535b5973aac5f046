import { schemaOf } from '@swapgw/messaging';
import { MigrationInterface, QueryRunner } from 'typeorm';

const STATUSES_BEFORE = `'pending', 'building', 'ready', 'submitted', 'confirmed', 'failed', 'expired', 'skipped', 'repricing'`;

/**
 * A deposit whose leg a protocol settles (issue 47: THORChain) is done when the protocol says so,
 * not when its transaction confirms: the step names who settles it (`settlement`, 'thorchain') and
 * waits, once confirmed, in the new status `settling` until the protocol's status says the outbound
 * went out (or was refunded).
 */
export class AddStepSettlements1765200000000 implements MigrationInterface {
  name = 'AddStepSettlements1765200000000';

  async up(q: QueryRunner): Promise<void> {
    const steps = `"${schemaOf(q.connection)}"."swap_steps"`;
    await q.query(
      `ALTER TABLE ${steps} ADD COLUMN "settlement" text CONSTRAINT "swap_steps_settlement_check" CHECK ("settlement" IN ('thorchain'))`,
    );
    await q.query(`ALTER TABLE ${steps} DROP CONSTRAINT "swap_steps_status_check"`);
    await q.query(
      `ALTER TABLE ${steps} ADD CONSTRAINT "swap_steps_status_check" CHECK ("status" IN (${STATUSES_BEFORE}, 'settling'))`,
    );
    // The settlement watcher's poll: the few steps waiting, oldest first.
    await q.query(
      `CREATE INDEX "swap_steps_settling_idx" ON ${steps} ("updated_at_ms") WHERE "status" = 'settling'`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    const steps = `"${schemaOf(q.connection)}"."swap_steps"`;
    // A step waiting for its settlement is done as it was before: its deposit confirmed.
    await q.query(`DROP INDEX "${schemaOf(q.connection)}"."swap_steps_settling_idx"`);
    await q.query(`UPDATE ${steps} SET "status" = 'confirmed' WHERE "status" = 'settling'`);
    await q.query(`ALTER TABLE ${steps} DROP CONSTRAINT "swap_steps_status_check"`);
    await q.query(
      `ALTER TABLE ${steps} ADD CONSTRAINT "swap_steps_status_check" CHECK ("status" IN (${STATUSES_BEFORE}))`,
    );
    await q.query(`ALTER TABLE ${steps} DROP COLUMN "settlement"`);
  }
}
