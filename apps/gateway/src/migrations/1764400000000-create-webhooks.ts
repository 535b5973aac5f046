import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Webhooks per API key owner and their deliveries (apps/gateway/src/webhooks). A delivery row is
 * written by the webhook consumer in the transaction that records the event (processed_events), so
 * no event is lost between Kafka and the dispatcher; the dispatcher claims due rows with
 * FOR UPDATE SKIP LOCKED and a lease. webhook_swap_owners tells the consumer whose a swap is (only
 * swap.created carries the owner).
 */
export class CreateWebhooks1764400000000 implements MigrationInterface {
  name = 'CreateWebhooks1764400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "gateway"."webhooks" (
      "id" uuid PRIMARY KEY,
      "owner" varchar(200) NOT NULL,
      "url" varchar(2048) NOT NULL,
      "event_types" text[],
      "secret" varchar(100) NOT NULL,
      "created_at_ms" bigint NOT NULL
    )`);
    await q.query(`CREATE INDEX "webhooks_owner" ON "gateway"."webhooks" ("owner", "created_at_ms")`);
    await q.query(`CREATE TABLE "gateway"."webhook_deliveries" (
      "id" uuid PRIMARY KEY,
      "webhook_id" uuid NOT NULL REFERENCES "gateway"."webhooks" ("id") ON DELETE CASCADE,
      "event_id" varchar(100) NOT NULL,
      "event_type" varchar(64) NOT NULL,
      "occurred_at_ms" bigint NOT NULL,
      "data" jsonb NOT NULL,
      "status" varchar(16) NOT NULL,
      "attempts" integer NOT NULL DEFAULT 0,
      "next_attempt_at_ms" bigint,
      "window_start_ms" bigint,
      "lease_token" uuid,
      "lease_until_ms" bigint,
      "last_attempt_at_ms" bigint,
      "last_response_status" integer,
      "last_error" varchar(500),
      "created_at_ms" bigint NOT NULL,
      "delivered_at_ms" bigint,
      CONSTRAINT "webhook_deliveries_event_once" UNIQUE ("webhook_id", "event_id")
    )`);
    await q.query(
      `CREATE INDEX "webhook_deliveries_due" ON "gateway"."webhook_deliveries" ("next_attempt_at_ms") WHERE "status" = 'pending'`,
    );
    await q.query(
      `CREATE INDEX "webhook_deliveries_log" ON "gateway"."webhook_deliveries" ("webhook_id", "created_at_ms" DESC, "id" DESC)`,
    );
    await q.query(`CREATE TABLE "gateway"."webhook_swap_owners" (
      "swap_id" varchar(100) PRIMARY KEY,
      "owner" varchar(200) NOT NULL,
      "created_at_ms" bigint NOT NULL
    )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "gateway"."webhook_swap_owners"`);
    await q.query(`DROP TABLE "gateway"."webhook_deliveries"`);
    await q.query(`DROP TABLE "gateway"."webhooks"`);
  }
}
