import { schemaOf } from '@swapgw/messaging';
import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Solana in the sponsorship ledger: a user's transaction the service's fee payer co-signs has no
 * nonce. `nonce` may be null on Solana rows (purpose `solana-transaction`) and on no other: EVM rows
 * keep their nonce and its uniqueness per relayer. A Solana transaction is one row: its id (the fee
 * payer's signature) is unique per chain.
 */
export class AddSolanaSponsoredTransactions1764300000000 implements MigrationInterface {
  name = 'AddSolanaSponsoredTransactions1764300000000';

  async up(q: QueryRunner): Promise<void> {
    const table = `"${schemaOf(q.connection)}"."sponsored_transactions"`;
    await q.query(`ALTER TABLE ${table} ALTER COLUMN "nonce" DROP NOT NULL`);
    await q.query(
      `ALTER TABLE ${table} ADD CONSTRAINT "sponsored_transactions_nonce_unless_solana" CHECK (("nonce" IS NULL) = ("purpose" = 'solana-transaction'))`,
    );
    await q.query(
      `CREATE UNIQUE INDEX "uq_sponsored_transactions_solana_signature" ON ${table} ("chain", "tx_hash") WHERE "purpose" = 'solana-transaction'`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    const table = `"${schemaOf(q.connection)}"."sponsored_transactions"`;
    await q.query(`DROP INDEX "${schemaOf(q.connection)}"."uq_sponsored_transactions_solana_signature"`);
    await q.query(`ALTER TABLE ${table} DROP CONSTRAINT "sponsored_transactions_nonce_unless_solana"`);
    await q.query(`DELETE FROM ${table} WHERE "nonce" IS NULL`);
    await q.query(`ALTER TABLE ${table} ALTER COLUMN "nonce" SET NOT NULL`);
  }
}
