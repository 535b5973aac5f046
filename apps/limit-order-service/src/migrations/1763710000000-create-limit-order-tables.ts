import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateLimitOrderTables1763710000000 implements MigrationInterface {
  name = 'CreateLimitOrderTables1763710000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "limit_order"."limit_orders" (
        "id" text PRIMARY KEY,
        "owner" text NOT NULL,
        "status" text NOT NULL CHECK ("status" IN ('open', 'triggered', 'canceled', 'expired')),
        "time_in_force" text NOT NULL CHECK ("time_in_force" IN ('GTC', 'GTD', 'IOC', 'FOK')),
        "from_chain" text NOT NULL,
        "to_chain" text NOT NULL,
        "token_in" text NOT NULL,
        "token_out" text NOT NULL,
        "token_in_decimals" int NOT NULL,
        "token_out_decimals" int NOT NULL,
        "amount" text NOT NULL,
        "amount_base" numeric(78, 0) NOT NULL CHECK ("amount_base" > 0),
        "min_amount_out" text NOT NULL,
        "min_amount_out_base" numeric(78, 0) NOT NULL CHECK ("min_amount_out_base" > 0),
        "filled_amount_base" numeric(78, 0) NULL,
        "expires_at_ms" bigint NOT NULL,
        "created_at_ms" bigint NOT NULL,
        "updated_at_ms" bigint NOT NULL,
        "next_check_at_ms" bigint NOT NULL DEFAULT 0,
        "network" text NULL,
        "slippage_bps" int NULL,
        "recipient" text NULL,
        "route" jsonb NULL,
        "route_key" text NULL,
        "swap_id" text NULL,
        "cancel_reason" text NULL,
        "replaces_id" text NULL REFERENCES "limit_order"."limit_orders" ("id"),
        "replaced_by_id" text NULL REFERENCES "limit_order"."limit_orders" ("id"),
        "version" int NOT NULL DEFAULT 1,
        -- An order is replaced at most once.
        CONSTRAINT "limit_orders_replaces_id_key" UNIQUE ("replaces_id")
      )`);
    // Listing: an owner's orders, newest first.
    await queryRunner.query(
      `CREATE INDEX "limit_orders_owner_created_idx" ON "limit_order"."limit_orders" ("owner", "created_at_ms" DESC, "id" DESC)`,
    );
    // Sweeper and watcher only ever scan open orders.
    await queryRunner.query(
      `CREATE INDEX "limit_orders_open_expiry_idx" ON "limit_order"."limit_orders" ("expires_at_ms") WHERE "status" = 'open'`,
    );
    await queryRunner.query(
      `CREATE INDEX "limit_orders_open_check_idx" ON "limit_order"."limit_orders" ("next_check_at_ms") WHERE "status" = 'open'`,
    );
    await queryRunner.query(`
      CREATE TABLE "limit_order"."limit_order_events" (
        "id" BIGSERIAL PRIMARY KEY,
        "event_id" uuid NOT NULL UNIQUE,
        "limit_order_id" text NOT NULL REFERENCES "limit_order"."limit_orders" ("id"),
        "owner" text NOT NULL,
        "type" text NOT NULL,
        "order_version" int NOT NULL,
        "payload" jsonb NOT NULL,
        "occurred_at_ms" bigint NOT NULL
      )`);
    await queryRunner.query(
      `CREATE INDEX "limit_order_events_order_idx" ON "limit_order"."limit_order_events" ("limit_order_id", "id")`,
    );
    await queryRunner.query(`
      CREATE TABLE "limit_order"."idempotency_records" (
        "owner" text NOT NULL,
        "operation" text NOT NULL,
        "key" text NOT NULL,
        "fingerprint" text NOT NULL,
        "response" jsonb NOT NULL,
        "created_at_ms" bigint NOT NULL,
        CONSTRAINT "idempotency_records_pkey" PRIMARY KEY ("owner", "operation", "key")
      )`);
    await queryRunner.query(
      `CREATE INDEX "idempotency_records_created_idx" ON "limit_order"."idempotency_records" ("created_at_ms")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE IF EXISTS "limit_order"."idempotency_records"`);
    await queryRunner.query(`DROP TABLE IF EXISTS "limit_order"."limit_order_events"`);
    await queryRunner.query(`DROP TABLE IF EXISTS "limit_order"."limit_orders"`);
  }
}
