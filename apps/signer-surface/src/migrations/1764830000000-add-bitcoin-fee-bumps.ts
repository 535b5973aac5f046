import { schemaOf } from '@swapgw/messaging';
import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Bitcoin fee bumps: the ledger's `bitcoin-fee-bump` rows (a fee wallet's CPFP child of a stuck
 * sponsored transaction, its replacements as attempts) have no nonce, as the other fee-account rows.
 */
export class AddBitcoinFeeBumps1764830000000 implements MigrationInterface {
  name = 'AddBitcoinFeeBumps1764830000000';

  async up(q: QueryRunner): Promise<void> {
    const ledger = `"${schemaOf(q.connection)}"."sponsored_transactions"`;
    await q.query(`ALTER TABLE ${ledger} DROP CONSTRAINT "sponsored_transactions_nonce_unless_fee_payer"`);
    await q.query(
      `ALTER TABLE ${ledger} ADD CONSTRAINT "sponsored_transactions_nonce_unless_fee_payer"
         CHECK (("nonce" IS NULL) = ("purpose" IN ('solana-transaction', 'bitcoin-transaction', 'bitcoin-fee-bump')))`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    const ledger = `"${schemaOf(q.connection)}"."sponsored_transactions"`;
    await q.query(`DELETE FROM ${ledger} WHERE "purpose" = 'bitcoin-fee-bump'`);
    await q.query(`ALTER TABLE ${ledger} DROP CONSTRAINT "sponsored_transactions_nonce_unless_fee_payer"`);
    await q.query(
      `ALTER TABLE ${ledger} ADD CONSTRAINT "sponsored_transactions_nonce_unless_fee_payer"
         CHECK (("nonce" IS NULL) = ("purpose" IN ('solana-transaction', 'bitcoin-transaction')))`,
    );
  }
}
