import type { DataSource, EntityManager } from 'typeorm';
import { MessageEnvelope } from '@swapgw/contracts';
import type { Clock } from '@swapgw/runtime';
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
 * The outbox rows of messages as one CTE of the caller's own statement (Outbox.rowsFor), and the
 * envelopes they carry.
 */
export interface OutboxRows<P = unknown> {
  /** `"outbox_rows" AS (INSERT …)`, for the caller's WITH; none when there are no messages. */
  ctes: string[];
  envelopes: MessageEnvelope<P>[];
}

/**
 * Writes messages to the outbox inside the caller's transaction: the message exists if and only if
 * the change it announces was committed. The OutboxRelay publishes it afterwards.
 */
export class Outbox {
  /** `clock` stamps the envelopes (occurredAtMs). */
  constructor(private readonly clock: Clock) {}

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
    const parameters: unknown[] = [outboxChannelOf(schema), JSON.stringify(contextHeaders())];
    const { envelopes, rows } = rowsOf(messages, parameters, 2, '', this.clock);
    // One round trip: the rows (ids in VALUES order, the relay's publishing order), and a NOTIFY
    // delivered at commit only (NOTIFY is transactional and PostgreSQL folds a transaction's
    // identical ones into one), waking the relays right away.
    await manager.query(
      `WITH "written" AS (
         INSERT INTO "${schema}"."outbox" ("event_id", "topic", "message_key", "envelope", "headers") VALUES ${rows}
         RETURNING 1
       )
       SELECT pg_notify($1, '') FROM "written" LIMIT 1`,
      parameters,
    );
    return envelopes;
  }

  /**
   * The outbox rows of `messages` as a CTE of the caller's statement, the one that writes the
   * change they announce: written, in the order given, only when the caller's CTE `guard` returns a
   * row (with `guard` null, always), each row waking the relays with a NOTIFY at commit. Its values
   * are appended to `parameters`. One statement being atomic, the messages exist if and only if
   * the change does, with or without a transaction around it: a write that is one statement needs
   * none, and one in a transaction spares the outbox's own statement (`enqueueAll`).
   */
  rowsFor<P>(
    connection: DataSource,
    guard: string | null,
    messages: OutboxMessage<P>[],
    parameters: unknown[],
  ): OutboxRows<P> {
    if (messages.length === 0) return { ctes: [], envelopes: [] };
    const schema = schemaOf(connection);
    parameters.push(outboxChannelOf(schema), JSON.stringify(contextHeaders()));
    const channel = parameters.length - 1;
    // Parameters inside a sub-SELECT's VALUES are not typed by the target columns: cast them.
    const { envelopes, rows } = rowsOf(messages, parameters, channel + 1, '::uuid', this.clock);
    // RETURNING runs for every row written even though nothing reads this CTE: the NOTIFY, folded
    // into one per transaction by PostgreSQL, goes out at commit with the rows.
    const cte =
      `"outbox_rows" AS (
         INSERT INTO "${schema}"."outbox" ("event_id", "topic", "message_key", "envelope", "headers")
         SELECT "event_id", "topic", "message_key", "envelope"::jsonb, "headers"::jsonb
           FROM (VALUES ${rows}) AS "m" ("event_id", "topic", "message_key", "envelope", "headers")` +
      (guard === null ? '' : `\n          WHERE EXISTS (SELECT 1 FROM "${guard}")`) +
      `\n         RETURNING pg_notify($${channel}, ''))`;
    return { ctes: [cte], envelopes };
  }
}

/**
 * The envelopes of `messages` and their VALUES rows, in order, their values appended to
 * `parameters`; `headers` is the position of the headers parameter they share, `uuid` the cast of
 * the event id, `clock` what stamps the envelopes.
 */
function rowsOf<P>(
  messages: OutboxMessage<P>[],
  parameters: unknown[],
  headers: number,
  uuid: string,
  clock: Clock,
): { envelopes: MessageEnvelope<P>[]; rows: string } {
  const envelopes: MessageEnvelope<P>[] = [];
  const rows: string[] = [];
  for (const message of messages) {
    const { type, aggregateId, payload, version } = message;
    const envelope = createEnvelope(type, aggregateId, payload, clock, version ?? 1);
    envelopes.push(envelope);
    parameters.push(envelope.eventId, message.topic, message.aggregateId, JSON.stringify(envelope));
    const n = parameters.length;
    rows.push(`($${n - 3}${uuid}, $${n - 2}, $${n - 1}, $${n}, $${headers})`);
  }
  return { envelopes, rows: rows.join(', ') };
}
