import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { swapOwnerSql } from './webhook-deliveries.repository';

/** NOTIFYed (no payload) in the transaction of every change of gateway.webhooks. */
export const WEBHOOKS_CHANNEL = 'gateway_webhooks';

export interface WebhookRow {
  id: string;
  owner: string;
  url: string;
  /** null: every type, present and future. */
  eventTypes: string[] | null;
  createdAtMs: number;
}

type RawWebhook = {
  id: string;
  owner: string;
  url: string;
  event_types: string[] | null;
  created_at_ms: string;
};
const toRow = (r: RawWebhook): WebhookRow => ({
  id: r.id,
  owner: r.owner,
  url: r.url,
  eventTypes: r.event_types,
  createdAtMs: Number(r.created_at_ms),
});

/**
 * gateway.webhooks: registrations, always read and changed through their owner. Every change
 * NOTIFYs WEBHOOKS_CHANNEL in its transaction (WebhookOwners keeps who has webhooks from it).
 */
@Injectable()
export class WebhooksRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Every owner with at least one webhook (WebhookOwners' set). */
  async owners(): Promise<string[]> {
    const rows: Array<{ owner: string }> = await this.dataSource.query(
      `SELECT DISTINCT "owner" FROM "gateway"."webhooks"`,
    );
    return rows.map((row) => row.owner);
  }

  /** Whether `owner` has a webhook taking events of `type`. */
  async ownerWants(owner: string, type: string): Promise<boolean> {
    const rows: Array<{ wanted: boolean }> = await this.dataSource.query(
      `SELECT EXISTS (
         SELECT 1 FROM "gateway"."webhooks" w WHERE w."owner" = $1 AND (w."event_types" IS NULL OR $2::varchar = ANY (w."event_types"))
       ) AS "wanted"`,
      [owner, type],
    );
    return rows[0]?.wanted === true;
  }

  /** ownerWants for the owner of a swap (remembered from swap.created, else the read model's). */
  async swapOwnerWants(swapId: string, type: string): Promise<boolean> {
    const rows: Array<{ wanted: boolean }> = await this.dataSource.query(
      `SELECT EXISTS (
         SELECT 1 FROM "gateway"."webhooks" w
         WHERE w."owner" = ${swapOwnerSql('$1')} AND (w."event_types" IS NULL OR $2::varchar = ANY (w."event_types"))
       ) AS "wanted"`,
      [swapId, type],
    );
    return rows[0]?.wanted === true;
  }

  /**
   * Inserts a webhook unless the owner already has `maxPerOwner`; the count and the insert are one
   * statement under a per-owner advisory lock, so concurrent creations cannot pass the bound together.
   */
  async insert(webhook: WebhookRow & { secret: string }, maxPerOwner: number): Promise<boolean> {
    return this.dataSource.transaction(async (manager) => {
      await manager.query(`SELECT pg_advisory_xact_lock(hashtext('gateway.webhooks:' || $1))`, [
        webhook.owner,
      ]);
      const inserted: unknown[] = await manager.query(
        `INSERT INTO "gateway"."webhooks" ("id", "owner", "url", "event_types", "secret", "created_at_ms")
         SELECT $1::uuid, $2::varchar, $3::varchar, $4::text[], $5::varchar, $6::bigint
         WHERE (SELECT count(*) FROM "gateway"."webhooks" WHERE "owner" = $2::varchar) < $7::int
         RETURNING "id"`,
        [
          webhook.id,
          webhook.owner,
          webhook.url,
          webhook.eventTypes,
          webhook.secret,
          webhook.createdAtMs,
          maxPerOwner,
        ],
      );
      if (inserted.length === 0) return false;
      await manager.query(`SELECT pg_notify($1, '')`, [WEBHOOKS_CHANNEL]);
      return true;
    });
  }

  async list(owner: string): Promise<WebhookRow[]> {
    const rows: RawWebhook[] = await this.dataSource.query(
      `SELECT "id", "owner", "url", "event_types", "created_at_ms" FROM "gateway"."webhooks" WHERE "owner" = $1 ORDER BY "created_at_ms" DESC, "id" DESC`,
      [owner],
    );
    return rows.map(toRow);
  }

  async get(owner: string, id: string): Promise<WebhookRow | null> {
    const rows: RawWebhook[] = await this.dataSource.query(
      `SELECT "id", "owner", "url", "event_types", "created_at_ms" FROM "gateway"."webhooks" WHERE "owner" = $1 AND "id" = $2`,
      [owner, id],
    );
    return rows.length > 0 ? toRow(rows[0]) : null;
  }

  /** Deletes the webhook and (cascade) its deliveries, pending ones included. False when not the owner's. */
  async delete(owner: string, id: string): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(
      `WITH "deleted" AS (DELETE FROM "gateway"."webhooks" WHERE "owner" = $1 AND "id" = $2 RETURNING "id")
       SELECT pg_notify($3, '') FROM "deleted"`,
      [owner, id, WEBHOOKS_CHANNEL],
    );
    return rows.length > 0;
  }
}
