import { schemaOf } from '@swapgw/messaging';
import { moveStepFieldsIntoSpec, moveStepSpecIntoFields, StepSpecTable } from '@swapgw/persistence';
import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A step is stored as its variant of SigningStep (issue 32, point 2): one `spec jsonb NOT NULL`
 * instead of a nullable column per field of any kind of step (call, solana, bitcoin, approve,
 * wait_for, sponsored). The rows already there, steps in flight included, are moved both ways.
 */
export class StoreStepSpecs1765000000000 implements MigrationInterface {
  name = 'StoreStepSpecs1765000000000';

  async up(q: QueryRunner): Promise<void> {
    await moveStepFieldsIntoSpec(q, stepsOf(q));
  }

  async down(q: QueryRunner): Promise<void> {
    await moveStepSpecIntoFields(q, stepsOf(q));
  }
}

const stepsOf = (q: QueryRunner): StepSpecTable => ({
  table: `"${schemaOf(q.connection)}"."swap_steps"`,
  haveASpecConstraint: 'swap_steps_have_a_spec',
  specFamilyConstraint: 'swap_steps_spec_family',
});
