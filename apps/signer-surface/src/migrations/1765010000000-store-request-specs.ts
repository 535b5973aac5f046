import { schemaOf } from '@swapgw/messaging';
import { moveStepFieldsIntoSpec, moveStepSpecIntoFields, StepSpecTable } from '@swapgw/persistence';
import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A signing request stores its step as its variant of SigningStep (issue 32, point 2): one
 * `spec jsonb NOT NULL` instead of a nullable column per field of any kind of step (call, solana,
 * bitcoin, approve, wait_for, sponsored). The rows already there, requests in flight included, are
 * moved both ways.
 */
export class StoreRequestSpecs1765010000000 implements MigrationInterface {
  name = 'StoreRequestSpecs1765010000000';

  async up(q: QueryRunner): Promise<void> {
    await moveStepFieldsIntoSpec(q, requestsOf(q));
  }

  async down(q: QueryRunner): Promise<void> {
    await moveStepSpecIntoFields(q, requestsOf(q));
  }
}

const requestsOf = (q: QueryRunner): StepSpecTable => ({
  table: `"${schemaOf(q.connection)}"."signing_requests"`,
  haveASpecConstraint: 'signing_requests_have_a_spec',
  specFamilyConstraint: 'signing_requests_spec_family',
});
