import { randomUUID } from 'node:crypto';
import { Clock } from '@swapgw/runtime';
import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';

export type DeliveryStatus = 'pending' | 'delivered' | 'dead';

/** What the consumer hands over for one event: becomes one delivery per subscribed webhook of the owner. */
export interface WebhookEvent {
  eventId: string;
  type: string;
  occurredAtMs: number;
  data: Record<string, unknown>;
}

/** A delivery claimed by this instance for one attempt. */
export interface ClaimedDelivery {
  id: string;
  webhookId: string;
  url: string;
  secret: string;
  eventId: string;
  eventType: string;
  occurredAtMs: number;
  data: Record<string, unknown>;
  attempts: number;
  windowStartMs: number | null;
  createdAtMs: number;
  leaseToken: string;
}

export interface DeliveryRow {
  id: string;
  webhookId: string;
  eventId: string;
  eventType: string;
  status: DeliveryStatus;
  attempts: number;
  nextAttemptAtMs: number | null;
  lastAttemptAtMs: number | null;
  lastResponseStatus: number | null;
  lastError: string | null;
  createdAtMs: number;
  deliveredAtMs: number | null;
}

type RawDelivery = Record<string, string | number | null>;
const num = (v: string | number | null): number | null => (v === null ? null : Number(v));

const toRow = (r: RawDelivery): DeliveryRow => ({
  id: String(r.id),
  webhookId: String(r.webhook_id),
  eventId: String(r.event_id),
  eventType: String(r.event_type),
  status: r.status as DeliveryStatus,
  attempts: Number(r.attempts),
  nextAttemptAtMs: r.status === 'pending' ? num(r.next_attempt_at_ms) : null,
  lastAttemptAtMs: num(r.last_attempt_at_ms),
  lastResponseStatus: num(r.last_response_status),
  lastError: r.last_error === null ? null : String(r.last_error),
  createdAtMs: Number(r.created_at_ms),
  deliveredAtMs: num(r.delivered_at_ms),
});

const DELIVERY_COLUMNS = `"id", "webhook_id", "event_id", "event_type", "status", "attempts", "next_attempt_at_ms", "last_attempt_at_ms",
  "last_response_status", "last_error", "created_at_ms", "delivered_at_ms"`;

/**
 * gateway.webhook_deliveries: the durable queue between the webhook consumer and the dispatcher,
 * and the delivery log integrators read.
 */
/**
 * The owner of the swap whose id is the (text) parameter `param`: remembered from its swap.created by
 * the webhook consumer, else read from the read model (swaps created before the consumer group).
 */
export function swapOwnerSql(param: string): string {
  return `COALESCE(
    (SELECT o."owner" FROM "gateway"."webhook_swap_owners" o WHERE o."swap_id" = ${param}),
    (SELECT v."owner" FROM "gateway"."swap_views" v WHERE v."swap_id" = ${param}::uuid))`;
}

/** NOTIFY channel of deliveries that became due now (new ones, redelivered ones). */
export const WEBHOOK_DELIVERIES_CHANNEL = 'gateway_webhook_deliveries';

@Injectable()
export class WebhookDeliveriesRepository {
  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
  ) {}

  /** The swap's owner, as swap.created named it, for its later events (in the event's transaction). */
  async rememberSwapOwner(
    manager: EntityManager,
    swapId: string,
    owner: string,
    atMs: number,
  ): Promise<void> {
    await manager.query(
      `INSERT INTO "gateway"."webhook_swap_owners" ("swap_id", "owner", "created_at_ms") VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`,
      [swapId, owner, atMs],
    );
  }

  /**
   * One pending delivery per webhook of the owner subscribed to the event's type and registered
   * before it happened, in the consumer's transaction (`manager`). The owner is given, or read in
   * the same statement for a swap's event (`{ swapId }`: see SWAP_OWNER_SQL). A redelivered event
   * inserts nothing new (unique webhook + event). Returns how many were inserted.
   */
  async enqueue(
    manager: EntityManager,
    owner: string | { swapId: string },
    event: WebhookEvent,
    nowMs = this.clock.nowMs(),
  ): Promise<number> {
    const ownerSql = typeof owner === 'string' ? '$1::varchar' : swapOwnerSql('$1');
    // The NOTIFY (sent at commit, once per transaction however many rows) wakes the dispatchers.
    const inserted: unknown[] = await manager.query(
      `WITH inserted AS (
       INSERT INTO "gateway"."webhook_deliveries"
         ("id", "webhook_id", "event_id", "event_type", "occurred_at_ms", "data", "status", "attempts", "next_attempt_at_ms", "created_at_ms")
       SELECT gen_random_uuid(), w."id", $2::varchar, $3::varchar, $4::bigint, $5::jsonb, 'pending', 0, $6::bigint, $6::bigint
       FROM "gateway"."webhooks" w
       WHERE w."owner" = ${ownerSql} AND (w."event_types" IS NULL OR $3::varchar = ANY (w."event_types")) AND w."created_at_ms" <= $4::bigint
       ON CONFLICT ("webhook_id", "event_id") DO NOTHING
       RETURNING "id")
       SELECT "id", pg_notify('${WEBHOOK_DELIVERIES_CHANNEL}', '') FROM inserted`,
      [
        typeof owner === 'string' ? owner : owner.swapId,
        event.eventId,
        event.type,
        event.occurredAtMs,
        JSON.stringify(event.data),
        nowMs,
      ],
    );
    return inserted.length;
  }

  /**
   * Claims up to `limit` due deliveries for one attempt: pending, due, and not leased by a live
   * attempt (a lease past its end belongs to an instance that died mid-attempt). Rows locked by
   * another instance's claim are skipped, so instances never claim the same row.
   */
  async claimDue(limit: number, leaseMs: number, nowMs = this.clock.nowMs()): Promise<ClaimedDelivery[]> {
    const leaseToken = randomUUID();
    // An UPDATE answers [rows, affected count] through TypeORM's query().
    const [rows]: [RawDelivery[], number] = await this.dataSource.query(
      `WITH due AS (
         SELECT d."id" FROM "gateway"."webhook_deliveries" d
         WHERE d."status" = 'pending' AND d."next_attempt_at_ms" <= $1 AND (d."lease_until_ms" IS NULL OR d."lease_until_ms" <= $1)
         ORDER BY d."next_attempt_at_ms"
         LIMIT $2
         FOR UPDATE SKIP LOCKED
       )
       UPDATE "gateway"."webhook_deliveries" d
       SET "lease_token" = $3, "lease_until_ms" = $1 + $4, "window_start_ms" = COALESCE(d."window_start_ms", $1)
       FROM due, "gateway"."webhooks" w
       WHERE d."id" = due."id" AND w."id" = d."webhook_id"
       RETURNING d."id", d."webhook_id", w."url", w."secret", d."event_id", d."event_type", d."occurred_at_ms", d."data",
                 d."attempts", d."window_start_ms", d."created_at_ms"`,
      [nowMs, limit, leaseToken, leaseMs],
    );
    return rows.map((r) => ({
      id: String(r.id),
      webhookId: String(r.webhook_id),
      url: String(r.url),
      secret: String(r.secret),
      eventId: String(r.event_id),
      eventType: String(r.event_type),
      occurredAtMs: Number(r.occurred_at_ms),
      data: r.data as unknown as Record<string, unknown>,
      attempts: Number(r.attempts),
      windowStartMs: num(r.window_start_ms),
      createdAtMs: Number(r.created_at_ms),
      leaseToken,
    }));
  }

  /**
   * Records an attempt's outcome, only if this instance still holds the lease (an attempt that
   * outlived it may have been made again by another instance: the receiver dedups by delivery id).
   * `nextAttemptAtMs` null with a failure = dead.
   */
  async recordAttempt(
    delivery: ClaimedDelivery,
    outcome: {
      delivered: boolean;
      responseStatus: number | null;
      error: string | null;
      nextAttemptAtMs: number | null;
    },
    nowMs = this.clock.nowMs(),
  ): Promise<boolean> {
    const status: DeliveryStatus = outcome.delivered
      ? 'delivered'
      : outcome.nextAttemptAtMs === null
        ? 'dead'
        : 'pending';
    const result: [unknown, number] = await this.dataSource.query(
      `UPDATE "gateway"."webhook_deliveries"
       SET "status" = $3::varchar, "attempts" = "attempts" + 1, "last_attempt_at_ms" = $4, "last_response_status" = $5, "last_error" = $6,
           "next_attempt_at_ms" = $7, "delivered_at_ms" = CASE WHEN $3::varchar = 'delivered' THEN $4::bigint ELSE NULL END,
           "lease_token" = NULL, "lease_until_ms" = NULL
       WHERE "id" = $1 AND "lease_token" = $2`,
      [
        delivery.id,
        delivery.leaseToken,
        status,
        nowMs,
        outcome.responseStatus,
        outcome.error?.slice(0, 500) ?? null,
        outcome.nextAttemptAtMs,
      ],
    );
    return result[1] > 0;
  }

  /** A webhook's deliveries, newest first, after the (createdAtMs, id) of `after`. */
  async list(
    webhookId: string,
    limit: number,
    after?: { createdAtMs: number; id: string },
  ): Promise<DeliveryRow[]> {
    const rows: RawDelivery[] = after
      ? await this.dataSource.query(
          `SELECT ${DELIVERY_COLUMNS} FROM "gateway"."webhook_deliveries"
           WHERE "webhook_id" = $1 AND ("created_at_ms", "id") < ($3, $4::uuid)
           ORDER BY "created_at_ms" DESC, "id" DESC LIMIT $2`,
          [webhookId, limit, after.createdAtMs, after.id],
        )
      : await this.dataSource.query(
          `SELECT ${DELIVERY_COLUMNS} FROM "gateway"."webhook_deliveries"
           WHERE "webhook_id" = $1 ORDER BY "created_at_ms" DESC, "id" DESC LIMIT $2`,
          [webhookId, limit],
        );
    return rows.map(toRow);
  }

  /**
   * Makes a delivery pending again, due now, with a fresh retry window (same delivery id: it is the
   * same event to the same webhook). Null when the webhook has no such delivery.
   */
  async redeliver(
    webhookId: string,
    deliveryId: string,
    nowMs = this.clock.nowMs(),
  ): Promise<DeliveryRow | null> {
    // A SELECT over the UPDATE (for its NOTIFY): rows come back as a plain list.
    const rows: RawDelivery[] = await this.dataSource.query(
      `WITH redelivered AS (
         UPDATE "gateway"."webhook_deliveries"
         SET "status" = 'pending', "next_attempt_at_ms" = $3, "window_start_ms" = $3
         WHERE "id" = $2 AND "webhook_id" = $1
         RETURNING ${DELIVERY_COLUMNS}
       )
       SELECT redelivered.*, pg_notify('${WEBHOOK_DELIVERIES_CHANNEL}', '') FROM redelivered`,
      [webhookId, deliveryId, nowMs],
    );
    return rows.length > 0 ? toRow(rows[0]) : null;
  }

  /**
   * Drops finished deliveries (delivered, dead) and remembered swap owners created before `cutoffMs`;
   * returns how many rows of each.
   */
  async purge(cutoffMs: number): Promise<{ deliveries: number; swapOwners: number }> {
    const [, deliveries]: [unknown, number] = await this.dataSource.query(
      `DELETE FROM "gateway"."webhook_deliveries" WHERE "status" IN ('delivered', 'dead') AND "created_at_ms" < $1`,
      [cutoffMs],
    );
    const [, swapOwners]: [unknown, number] = await this.dataSource.query(
      `DELETE FROM "gateway"."webhook_swap_owners" WHERE "created_at_ms" < $1`,
      [cutoffMs],
    );
    return { deliveries, swapOwners };
  }

  /** Pending deliveries (the retry backlog), for the metrics gauge. */
  async pendingCount(): Promise<number> {
    const rows: Array<{ count: string }> = await this.dataSource.query(
      `SELECT count(*) AS "count" FROM "gateway"."webhook_deliveries" WHERE "status" = 'pending'`,
    );
    return Number(rows[0]?.count ?? 0);
  }
}
