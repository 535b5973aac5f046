import { schemaOf } from '@swapgw/messaging';
import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A build command the planner refuses (no signing surface, a permit the route cannot take...) is
 * kept as a failed swap without steps, so that the gateway can answer the refusal: step_count may
 * be 0, and current_step stays 1.
 */
export class AllowRefusedSwaps1764000000000 implements MigrationInterface {
  name = 'AllowRefusedSwaps1764000000000';

  async up(q: QueryRunner): Promise<void> {
    const swaps = `"${schemaOf(q.connection)}"."swaps"`;
    await q.query(
      `ALTER TABLE ${swaps} DROP CONSTRAINT "swaps_step_count_check", DROP CONSTRAINT "swaps_check"`,
    );
    await q.query(
      `ALTER TABLE ${swaps} ADD CONSTRAINT "swaps_step_count_check" CHECK ("step_count" >= 1 OR ("step_count" = 0 AND "status" = 'failed'))`,
    );
    await q.query(
      `ALTER TABLE ${swaps} ADD CONSTRAINT "swaps_check" CHECK ("current_step" BETWEEN 1 AND GREATEST("step_count", 1))`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    const swaps = `"${schemaOf(q.connection)}"."swaps"`;
    await q.query(`DELETE FROM ${swaps} WHERE "step_count" = 0`);
    await q.query(
      `ALTER TABLE ${swaps} DROP CONSTRAINT "swaps_step_count_check", DROP CONSTRAINT "swaps_check"`,
    );
    await q.query(`ALTER TABLE ${swaps} ADD CONSTRAINT "swaps_step_count_check" CHECK ("step_count" >= 1)`);
    await q.query(
      `ALTER TABLE ${swaps} ADD CONSTRAINT "swaps_check" CHECK ("current_step" BETWEEN 1 AND "step_count")`,
    );
  }
}
