import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The integrator fees a swap paid on chain, one row per recipient, recorded by the swap.events
 * projector when the swap's fee-paying step is confirmed: what the operator totals per API key
 * owner (`npm run keys -- fees`). Amounts in base units of the fee's token; unique per swap and
 * recipient, so a replayed event records nothing twice.
 */
export class CreateIntegratorFeesCollected1764700000000 implements MigrationInterface {
  name = 'CreateIntegratorFeesCollected1764700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "gateway"."integrator_fees_collected" (
      "swap_id" uuid NOT NULL,
      "recipient" varchar(100) NOT NULL,
      "owner" varchar(200) NOT NULL,
      "chain" varchar(64) NOT NULL,
      "token_symbol" varchar(32) NOT NULL,
      "token_address" varchar(100) NULL,
      "token_decimals" integer NOT NULL,
      "amount" numeric(78, 0) NOT NULL,
      "tx_hash" varchar(100) NULL,
      "recorded_at" timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT "PK_integrator_fees_collected" PRIMARY KEY ("swap_id", "recipient"))`);
    await q.query(
      `CREATE INDEX "IDX_integrator_fees_collected_owner" ON "gateway"."integrator_fees_collected" ("owner", "recorded_at")`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "gateway"."integrator_fees_collected"`);
  }
}
