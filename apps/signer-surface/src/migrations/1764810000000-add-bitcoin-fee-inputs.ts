import { schemaOf } from '@swapgw/messaging';
import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Bitcoin fee wallets:
 * - `bitcoin_fee_inputs`: the UTXOs of the service's fee wallets that steps held, one row per
 *   outpoint (chain, txid, vout). A hold is live while `held_until_ms` is ahead and it is unspent;
 *   `spent_by_txid` names the transaction the service signed it into, after which no step takes it.
 * - the ledger's Bitcoin rows (purpose `bitcoin-transaction`) have no nonce, as Solana rows, and
 *   one row per txid on a chain.
 */
export class AddBitcoinFeeInputs1764810000000 implements MigrationInterface {
  name = 'AddBitcoinFeeInputs1764810000000';

  async up(q: QueryRunner): Promise<void> {
    const s = schemaOf(q.connection);
    const ledger = `"${s}"."sponsored_transactions"`;
    await q.query(`
      CREATE TABLE "${s}"."bitcoin_fee_inputs" (
        "chain" text NOT NULL,
        "txid" text NOT NULL CHECK ("txid" ~ '^[0-9a-f]{64}$'),
        "vout" integer NOT NULL CHECK ("vout" >= 0),
        "value" bigint NOT NULL CHECK ("value" > 0),
        "address" text NOT NULL,
        "swap_id" text NOT NULL,
        "step_index" integer NOT NULL,
        "held_until_ms" bigint NOT NULL,
        "spent_by_txid" text,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "updated_at" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT "pk_bitcoin_fee_inputs" PRIMARY KEY ("chain", "txid", "vout")
      )`);
    await q.query(
      `CREATE INDEX "ix_bitcoin_fee_inputs_step" ON "${s}"."bitcoin_fee_inputs" ("chain", "swap_id", "step_index")`,
    );
    await q.query(
      `CREATE INDEX "ix_bitcoin_fee_inputs_spent_by" ON "${s}"."bitcoin_fee_inputs" ("chain", "spent_by_txid")
        WHERE "spent_by_txid" IS NOT NULL`,
    );
    await q.query(`ALTER TABLE ${ledger} DROP CONSTRAINT "sponsored_transactions_nonce_unless_solana"`);
    await q.query(
      `ALTER TABLE ${ledger} ADD CONSTRAINT "sponsored_transactions_nonce_unless_fee_payer"
         CHECK (("nonce" IS NULL) = ("purpose" IN ('solana-transaction', 'bitcoin-transaction')))`,
    );
    await q.query(
      `CREATE UNIQUE INDEX "uq_sponsored_transactions_bitcoin_txid" ON ${ledger} ("chain", "tx_hash")
        WHERE "purpose" = 'bitcoin-transaction'`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    const s = schemaOf(q.connection);
    const ledger = `"${s}"."sponsored_transactions"`;
    await q.query(`DROP INDEX "${s}"."uq_sponsored_transactions_bitcoin_txid"`);
    await q.query(`DELETE FROM ${ledger} WHERE "purpose" = 'bitcoin-transaction'`);
    await q.query(`ALTER TABLE ${ledger} DROP CONSTRAINT "sponsored_transactions_nonce_unless_fee_payer"`);
    await q.query(
      `ALTER TABLE ${ledger} ADD CONSTRAINT "sponsored_transactions_nonce_unless_solana" CHECK (("nonce" IS NULL) = ("purpose" = 'solana-transaction'))`,
    );
    await q.query(`DROP TABLE "${s}"."bitcoin_fee_inputs"`);
  }
}
