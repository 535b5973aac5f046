import type { EntityManager } from 'typeorm';
import { MessageEnvelope } from '@swapgw/contracts';
import { createEnvelope } from '../envelope/create-envelope';
import { contextHeaders } from '../envelope/message-headers';
import { outboxChannelOf, schemaOf } from './schema-of';

export interface OutboxMessage<P = unknown> {
  topic: string;
  type: string;
  /** Kafka key: everything about one aggregate stays in order on one partition. */
  aggregateId: string;
  payload: P;
  version?: number;
}

/**
 * Writes messages to the outbox inside the caller's transaction: the message exists if and only if
 * the change it announces was committed. The OutboxRelay publishes it afterwards.
 */
export class Outbox {
  async enqueue<P>(manager: EntityManager, message: OutboxMessage<P>): Promise<MessageEnvelope<P>> {
    if (!manager.queryRunner?.isTransactionActive) {
      // Outside a transaction the message could be published for a change that then rolls back.
      throw new Error('Outbox.enqueue must be called with the EntityManager of an open transaction');
    }
    const envelope = createEnvelope(message.type, message.aggregateId, message.payload, message.version ?? 1);
    const schema = schemaOf(manager.connection);
    // One round trip: the row, and a NOTIFY delivered at commit only (NOTIFY is transactional and
    // PostgreSQL folds a transaction's identical ones into one), waking the relays right away.
    await manager.query(
      `WITH "written" AS (
         INSERT INTO "${schema}"."outbox" ("event_id", "topic", "message_key", "envelope", "headers") VALUES ($1, $2, $3, $4, $5)
         RETURNING 1
       )
       SELECT pg_notify($6, '') FROM "written"`,
      [
        envelope.eventId,
        message.topic,
        message.aggregateId,
        JSON.stringify(envelope),
        JSON.stringify(contextHeaders()),
        outboxChannelOf(schema),
      ],
    );
    return envelope;
  }
}
