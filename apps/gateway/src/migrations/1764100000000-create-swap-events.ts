import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The per-swap event log behind GET /swap/{swapId}/events: the projector appends one row in the
 * transaction that changes the swap's view, so the log and the view never disagree. `id` is the
 * SSE event id (increasing in commit order within a swap, since one swap's events are projected
 * one after the other); streams read `id > Last-Event-ID` of their swap in pages.
 */
export class CreateSwapEvents1764100000000 implements MigrationInterface {
  name = 'CreateSwapEvents1764100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "gateway"."swap_events" (
      "id" bigserial PRIMARY KEY,
      "swap_id" uuid NOT NULL,
      "type" varchar(64) NOT NULL,
      "data" jsonb NOT NULL,
      "created_at" timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query(`CREATE INDEX "swap_events_swap_id_id" ON "gateway"."swap_events" ("swap_id", "id")`);
    await q.query(`CREATE INDEX "swap_events_created_at" ON "gateway"."swap_events" ("created_at")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "gateway"."swap_events"`);
  }
}
