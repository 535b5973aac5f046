import { schemaOf } from '@swapgw/messaging';
import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The sponsorship ledger heals and is bounded:
 * - `cancelled` (not mined under its fee ceiling; a zero-value self-transfer took the nonce) and
 *   `lost` (recorded as mined, then the chain no longer had it) with `failure_code` and
 *   `failure_reason`;
 * - `max_fee_ceiling`: the most any attempt may bid per gas. Rows written before it get
 *   3 × their first attempt's fee cap (RELAYER_FEE_CEILING_PERCENT's default), so the budget stops
 *   counting a runaway pending fee and the tracker stops raising it;
 * - `nonce-fill` rows: a zero-value self-transfer at a nonce the chain is missing under a pending
 *   transaction; the operator's, so without swap, step or owner;
 * - a nonce of a relayer is one live row: rows `lost` or `dropped` no longer hold theirs (a chain
 *   reset or another sender reused it).
 */
export class RelayerLedgerHeals1764700000000 implements MigrationInterface {
  name = 'RelayerLedgerHeals1764700000000';

  async up(q: QueryRunner): Promise<void> {
    const s = schemaOf(q.connection);
    const table = `"${s}"."sponsored_transactions"`;
    await q.query(`ALTER TABLE ${table} DROP CONSTRAINT IF EXISTS "sponsored_transactions_status_check"`);
    await q.query(
      `ALTER TABLE ${table} ADD CONSTRAINT "sponsored_transactions_status_check"
         CHECK ("status" IN ('pending', 'confirmed', 'failed', 'dropped', 'cancelled', 'lost'))`,
    );
    await q.query(
      `ALTER TABLE ${table} ADD COLUMN "max_fee_ceiling" numeric(78, 0),
         ADD COLUMN "failure_code" text, ADD COLUMN "failure_reason" text`,
    );
    await q.query(
      `UPDATE ${table} SET "max_fee_ceiling" = ("attempts"->0->>'maxFeePerGas')::numeric * 3
        WHERE "purpose" <> 'solana-transaction'`,
    );
    await q.query(
      `ALTER TABLE ${table} ALTER COLUMN "swap_id" DROP NOT NULL, ALTER COLUMN "step_index" DROP NOT NULL,
         ALTER COLUMN "owner" DROP NOT NULL`,
    );
    await q.query(
      `ALTER TABLE ${table} ADD CONSTRAINT "sponsored_transactions_step_unless_fill"
         CHECK ("purpose" = 'nonce-fill' OR ("swap_id" IS NOT NULL AND "step_index" IS NOT NULL AND "owner" IS NOT NULL))`,
    );
    await q.query(
      `ALTER TABLE ${table} ADD CONSTRAINT "sponsored_transactions_cancelled_has_cost"
         CHECK ("status" <> 'cancelled' OR "cost_wei" IS NOT NULL)`,
    );
    await q.query(`ALTER TABLE ${table} DROP CONSTRAINT "uq_sponsored_transactions_nonce"`);
    await q.query(
      `CREATE UNIQUE INDEX "uq_sponsored_transactions_live_nonce" ON ${table} ("chain", "relayer", "nonce")
        WHERE "status" NOT IN ('lost', 'dropped')`,
    );
    // The reconciler's reads: a relayer's rows by nonce.
    await q.query(
      `CREATE INDEX "ix_sponsored_transactions_relayer_nonce" ON ${table} ("chain", "relayer", "nonce")`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    const s = schemaOf(q.connection);
    const table = `"${s}"."sponsored_transactions"`;
    await q.query(`DROP INDEX "${s}"."ix_sponsored_transactions_relayer_nonce"`);
    await q.query(`DROP INDEX "${s}"."uq_sponsored_transactions_live_nonce"`);
    await q.query(`DELETE FROM ${table} WHERE "status" IN ('lost', 'dropped') OR "purpose" = 'nonce-fill'`);
    await q.query(
      `ALTER TABLE ${table} ADD CONSTRAINT "uq_sponsored_transactions_nonce" UNIQUE ("chain", "relayer", "nonce")`,
    );
    await q.query(`ALTER TABLE ${table} DROP CONSTRAINT "sponsored_transactions_cancelled_has_cost"`);
    await q.query(`ALTER TABLE ${table} DROP CONSTRAINT "sponsored_transactions_step_unless_fill"`);
    await q.query(
      `ALTER TABLE ${table} ALTER COLUMN "swap_id" SET NOT NULL, ALTER COLUMN "step_index" SET NOT NULL,
         ALTER COLUMN "owner" SET NOT NULL`,
    );
    await q.query(`UPDATE ${table} SET "status" = 'failed' WHERE "status" = 'cancelled'`);
    await q.query(
      `ALTER TABLE ${table} DROP COLUMN "max_fee_ceiling", DROP COLUMN "failure_code", DROP COLUMN "failure_reason"`,
    );
    await q.query(`ALTER TABLE ${table} DROP CONSTRAINT "sponsored_transactions_status_check"`);
    await q.query(
      `ALTER TABLE ${table} ADD CONSTRAINT "sponsored_transactions_status_check"
         CHECK ("status" IN ('pending', 'confirmed', 'failed', 'dropped'))`,
    );
  }
}
