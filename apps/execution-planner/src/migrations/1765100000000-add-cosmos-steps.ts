import { schemaOf } from '@swapgw/messaging';
import { MigrationInterface, QueryRunner } from 'typeorm';

/** The step families `swap_steps.spec` held before the Cosmos family. */
const BEFORE = ['evm-transaction', 'evm-typed-data', 'solana-transaction', 'bitcoin-psbt'];

/** A step may be a Cosmos transaction (issue 46): the CHECK naming the step families takes `cosmos-sign-direct`. */
export class AddCosmosSteps1765100000000 implements MigrationInterface {
  name = 'AddCosmosSteps1765100000000';

  async up(q: QueryRunner): Promise<void> {
    await replaceSpecFamilyCheck(q, [...BEFORE, 'cosmos-sign-direct']);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(
      `DELETE FROM "${schemaOf(q.connection)}"."swap_steps" WHERE "spec"->>'family' = 'cosmos-sign-direct'`,
    );
    await replaceSpecFamilyCheck(q, BEFORE);
  }
}

async function replaceSpecFamilyCheck(q: QueryRunner, families: string[]): Promise<void> {
  const table = `"${schemaOf(q.connection)}"."swap_steps"`;
  await q.query(`ALTER TABLE ${table} DROP CONSTRAINT "swap_steps_spec_family"`);
  await q.query(
    `ALTER TABLE ${table} ADD CONSTRAINT "swap_steps_spec_family" CHECK ("spec"->>'family' IN (${families.map((f) => `'${f}'`).join(', ')}))`,
  );
}
