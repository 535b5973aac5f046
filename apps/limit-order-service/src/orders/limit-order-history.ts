import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { LimitOrderEventType, Topics } from '@swapgw/contracts';
import { Outbox } from '@swapgw/messaging';
import { LimitOrderEventEntity } from './limit-order-event.entity';
import { LimitOrderEntity } from './limit-order.entity';
import { toEventPayload } from './limit-order.view';

/**
 * Records one change of an order twice, in the caller's transaction: in the append-only
 * `limit_order_events` history and in the outbox for `limit-order.events` (same eventId), so the
 * history and the published stream can never disagree.
 */
@Injectable()
export class LimitOrderHistory {
  constructor(private readonly outbox: Outbox) {}

  async record(
    manager: EntityManager,
    type: LimitOrderEventType,
    snapshot: LimitOrderEntity,
    extra: Record<string, unknown> = {},
  ): Promise<void> {
    const payload = { ...toEventPayload(snapshot), ...extra };
    const envelope = await this.outbox.enqueue(manager, {
      topic: Topics.limitOrderEvents,
      type,
      aggregateId: snapshot.id,
      payload,
    });
    await manager.insert(LimitOrderEventEntity, {
      eventId: envelope.eventId,
      limitOrderId: snapshot.id,
      owner: snapshot.owner,
      type,
      orderVersion: snapshot.version,
      // jsonb column: TypeORM's deep-partial type cannot describe an open JSON object.
      payload: payload as never,
      occurredAtMs: envelope.occurredAtMs,
    });
  }
}
