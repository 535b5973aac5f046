import { schemaOf } from '@swapgw/messaging';
import { checkStepFamilyList, checkStepFamilyShape, StepFamilyCheck } from '@swapgw/persistence';
import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `swap_steps.spec`'s family is checked for its shape, no longer against a list (issue 45, point 5:
 * a new chain family needs no migration here; @swapgw/persistence's STEP_FAMILY_SHAPE says why).
 */
export class CheckStepFamilyShape1765700000000 implements MigrationInterface {
  name = 'CheckStepFamilyShape1765700000000';

  async up(q: QueryRunner): Promise<void> {
    await checkStepFamilyShape(q, stepsOf(q));
  }

  async down(q: QueryRunner): Promise<void> {
    await checkStepFamilyList(q, stepsOf(q));
  }
}

const stepsOf = (q: QueryRunner): StepFamilyCheck => ({
  table: `"${schemaOf(q.connection)}"."swap_steps"`,
  constraint: 'swap_steps_spec_family',
});
