import { schemaOf } from '@swapgw/messaging';
import { MigrationInterface, QueryRunner } from 'typeorm';

/** The step families `signing_requests.spec` held before the Cosmos family. */
const BEFORE = ['evm-transaction', 'evm-typed-data', 'solana-transaction', 'bitcoin-psbt'];

/** A signing request may be for a Cosmos transaction (issue 46): the CHECK naming the step families takes `cosmos-sign-direct`. */
export class AddCosmosRequests1765110000000 implements MigrationInterface {
  name = 'AddCosmosRequests1765110000000';

  async up(q: QueryRunner): Promise<void> {
    await replaceSpecFamilyCheck(q, [...BEFORE, 'cosmos-sign-direct']);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(
      `DELETE FROM "${schemaOf(q.connection)}"."signing_requests" WHERE "spec"->>'family' = 'cosmos-sign-direct'`,
    );
    await replaceSpecFamilyCheck(q, BEFORE);
  }
}

async function replaceSpecFamilyCheck(q: QueryRunner, families: string[]): Promise<void> {
  const table = `"${schemaOf(q.connection)}"."signing_requests"`;
  await q.query(`ALTER TABLE ${table} DROP CONSTRAINT "signing_requests_spec_family"`);
  await q.query(
    `ALTER TABLE ${table} ADD CONSTRAINT "signing_requests_spec_family" CHECK ("spec"->>'family' IN (${families.map((f) => `'${f}'`).join(', ')}))`,
  );
}
