import { schemaOf } from '@swapgw/messaging';
import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Gas sponsorship on signing requests: how the step's gas is paid (`sponsored`), whose budget it
 * counts against (`owner`, the API key), and the relayer transactions it caused: the gas sent to
 * the user before their own transaction (`gas_drop_id`) or the transaction carrying the user's
 * typed-data signature (`sponsored_tx_id`), both rows of the sponsored-transactions ledger.
 */
export class AddSponsoredRequests1764200000000 implements MigrationInterface {
  name = 'AddSponsoredRequests1764200000000';

  async up(q: QueryRunner): Promise<void> {
    const requests = `"${schemaOf(q.connection)}"."signing_requests"`;
    await q.query(
      `ALTER TABLE ${requests} ADD COLUMN "sponsored" jsonb, ADD COLUMN "owner" text, ADD COLUMN "gas_drop_id" text, ADD COLUMN "sponsored_tx_id" text`,
    );
    // A typed-data step has neither a call nor a Solana spec: its sponsored spec says what to sign.
    await q.query(`ALTER TABLE ${requests} DROP CONSTRAINT "signing_requests_call_or_solana"`);
    await q.query(
      `ALTER TABLE ${requests} ADD CONSTRAINT "signing_requests_call_solana_or_sponsored" CHECK ("call" IS NOT NULL OR "solana" IS NOT NULL OR "sponsored" IS NOT NULL)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    const requests = `"${schemaOf(q.connection)}"."signing_requests"`;
    await q.query(`DELETE FROM ${requests} WHERE "call" IS NULL AND "solana" IS NULL`);
    await q.query(`ALTER TABLE ${requests} DROP CONSTRAINT "signing_requests_call_solana_or_sponsored"`);
    await q.query(
      `ALTER TABLE ${requests} ADD CONSTRAINT "signing_requests_call_or_solana" CHECK ("call" IS NOT NULL OR "solana" IS NOT NULL)`,
    );
    await q.query(
      `ALTER TABLE ${requests} DROP COLUMN "sponsored", DROP COLUMN "owner", DROP COLUMN "gas_drop_id", DROP COLUMN "sponsored_tx_id"`,
    );
  }
}
