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
    const [envelope] = await this.enqueueAll(manager, [message]);
    return envelope;
  }

  /** `enqueue` of several messages in one statement, published in the order given. */
  async enqueueAll<P>(manager: EntityManager, messages: OutboxMessage<P>[]): Promise<MessageEnvelope<P>[]> {
    if (!manager.queryRunner?.isTransactionActive) {
      // Outside a transaction the message could be published for a change that then rolls back.
      throw new Error('Outbox.enqueue must be called with the EntityManager of an open transaction');
    }
    if (messages.length === 0) return [];
    const schema = schemaOf(manager.connection);
    const headers = JSON.stringify(contextHeaders());
    const envelopes: MessageEnvelope<P>[] = [];
    const rows: string[] = [];
    const parameters: unknown[] = [outboxChannelOf(schema), headers];
    for (const message of messages) {
      const envelope = createEnvelope(
        message.type,
        message.aggregateId,
        message.payload,
        message.version ?? 1,
      );
      envelopes.push(envelope);
      parameters.push(envelope.eventId, message.topic, message.aggregateId, JSON.stringify(envelope));
      const n = parameters.length;
      rows.push(`($${n - 3}, $${n - 2}, $${n - 1}, $${n}, $2)`);
    }
    // One round trip: the rows (ids in VALUES order, the relay's publishing order), and a NOTIFY
    // delivered at commit only (NOTIFY is transactional and PostgreSQL folds a transaction's
    // identical ones into one), waking the relays right away.
    await manager.query(
      `WITH "written" AS (
         INSERT INTO "${schema}"."outbox" ("event_id", "topic", "message_key", "envelope", "headers") VALUES ${rows.join(', ')}
         RETURNING 1
       )
       SELECT pg_notify($1, '') FROM "written" LIMIT 1`,
      parameters,
    );
    return envelopes;
  }
}
