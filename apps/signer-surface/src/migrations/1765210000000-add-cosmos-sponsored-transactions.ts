import { schemaOf } from '@swapgw/messaging';
import { MigrationInterface, QueryRunner } from 'typeorm';

/** The ledger's purposes without a nonce before the Cosmos fee granters' rows. */
const BEFORE = ['solana-transaction', 'bitcoin-transaction', 'bitcoin-fee-bump'];

/**
 * The Cosmos fee granters' ledger rows: `cosmos-transaction` (a user's transaction whose fee the
 * granter pays through x/feegrant) and `cosmos-fee-grant` (the granter's grant) have no nonce, as
 * the other fee accounts' rows.
 */
export class AddCosmosSponsoredTransactions1765210000000 implements MigrationInterface {
  name = 'AddCosmosSponsoredTransactions1765210000000';

  async up(q: QueryRunner): Promise<void> {
    await replaceNonceCheck(q, [...BEFORE, 'cosmos-transaction', 'cosmos-fee-grant']);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(
      `DELETE FROM "${schemaOf(q.connection)}"."sponsored_transactions" WHERE "purpose" IN ('cosmos-transaction', 'cosmos-fee-grant')`,
    );
    await replaceNonceCheck(q, BEFORE);
  }
}

async function replaceNonceCheck(q: QueryRunner, withoutNonce: string[]): Promise<void> {
  const ledger = `"${schemaOf(q.connection)}"."sponsored_transactions"`;
  await q.query(`ALTER TABLE ${ledger} DROP CONSTRAINT "sponsored_transactions_nonce_unless_fee_payer"`);
  await q.query(
    `ALTER TABLE ${ledger} ADD CONSTRAINT "sponsored_transactions_nonce_unless_fee_payer"
       CHECK (("nonce" IS NULL) = ("purpose" IN (${withoutNonce.map((p) => `'${p}'`).join(', ')})))`,
  );
}
