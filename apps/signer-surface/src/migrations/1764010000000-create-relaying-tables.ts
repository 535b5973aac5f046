import { schemaOf } from '@swapgw/messaging';
import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Gas sponsorship: `relayer_accounts` (the nonce each relayer account is at, and the row a sender
 * locks while it uses the account) and `sponsored_transactions` (the ledger of what the relayers
 * sent, every attempt, and what each cost).
 */
export class CreateRelayingTables1764010000000 implements MigrationInterface {
  name = 'CreateRelayingTables1764010000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const s = schemaOf(queryRunner.connection);
    await queryRunner.query(`
      CREATE TABLE "${s}"."relayer_accounts" (
        "chain" text NOT NULL,
        "address" text NOT NULL,
        "next_nonce" bigint NOT NULL DEFAULT 0 CHECK ("next_nonce" >= 0),
        "last_used_at" timestamptz,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "updated_at" timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY ("chain", "address")
      )`);
    await queryRunner.query(`
      CREATE TABLE "${s}"."sponsored_transactions" (
        "id" uuid PRIMARY KEY,
        "chain" text NOT NULL,
        "relayer" text NOT NULL,
        "nonce" bigint NOT NULL CHECK ("nonce" >= 0),
        "purpose" text NOT NULL,
        "swap_id" text NOT NULL,
        "step_index" int NOT NULL,
        "owner" text NOT NULL,
        "to" text NOT NULL,
        "data" text NOT NULL,
        "value" numeric(78, 0) NOT NULL CHECK ("value" >= 0),
        "gas_limit" numeric(78, 0) NOT NULL CHECK ("gas_limit" > 0),
        "tx_hash" text NOT NULL,
        "attempts" jsonb NOT NULL,
        "max_fee_per_gas" numeric(78, 0) NOT NULL,
        "max_priority_fee_per_gas" numeric(78, 0) NOT NULL,
        "status" text NOT NULL CHECK ("status" IN ('pending', 'confirmed', 'failed', 'dropped')),
        "gas_used" numeric(78, 0),
        "effective_gas_price" numeric(78, 0),
        "cost_wei" numeric(78, 0),
        "block_number" bigint,
        "mined_at_ms" bigint,
        "last_sent_at_ms" bigint NOT NULL,
        "next_check_at_ms" bigint,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "updated_at" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT "fk_sponsored_transactions_relayer" FOREIGN KEY ("chain", "relayer") REFERENCES "${s}"."relayer_accounts" ("chain", "address"),
        -- A nonce of a relayer is one ledger row, whatever happens to it: the database refuses reuse.
        CONSTRAINT "uq_sponsored_transactions_nonce" UNIQUE ("chain", "relayer", "nonce"),
        CONSTRAINT "sponsored_transactions_mined_has_cost" CHECK ("status" NOT IN ('confirmed', 'failed') OR "cost_wei" IS NOT NULL)
      )`);
    // The tracker scans pending rows only.
    await queryRunner.query(
      `CREATE INDEX "ix_sponsored_transactions_due" ON "${s}"."sponsored_transactions" ("next_check_at_ms") WHERE "status" = 'pending'`,
    );
    // The budget sums one owner's day on one chain.
    await queryRunner.query(
      `CREATE INDEX "ix_sponsored_transactions_budget" ON "${s}"."sponsored_transactions" ("owner", "chain", "created_at")`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_sponsored_transactions_swap" ON "${s}"."sponsored_transactions" ("swap_id", "step_index")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const s = schemaOf(queryRunner.connection);
    await queryRunner.query(`DROP TABLE "${s}"."sponsored_transactions"`);
    await queryRunner.query(`DROP TABLE "${s}"."relayer_accounts"`);
  }
}
