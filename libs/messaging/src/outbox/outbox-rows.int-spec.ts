import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { MessageHeaders } from '@swapgw/contracts';
import { waitFor } from '@swapgw/testing';
import { SystemClock } from '@swapgw/runtime';
import { CreateMessagingTables1763700000000 } from './create-messaging-tables.migration';
import { Outbox, OutboxMessage } from './outbox';
import { OutboxMessageEntity } from './outbox-message.entity';
import { ProcessedEventEntity } from './processed-event.entity';
import { outboxChannelOf } from './schema-of';
import {
  createTestDataSource,
  dropSchema,
  testDatabaseUrl,
  uniqueSuffix,
} from '../testing/messaging-test-support';

/**
 * Outbox.rowsFor over real PostgreSQL: the outbox rows written by the statement of the change they
 * announce, guarded by its CTE, with the NOTIFY that wakes the relays.
 */
describe('Outbox.rowsFor (the outbox rows as a CTE of the domain write)', () => {
  const schema = `msg_outbox_rows_${uniqueSuffix()}`;
  const outbox = new Outbox(new SystemClock());
  let dataSource: DataSource;
  let listener: Client;
  /** Payloads of the NOTIFYs on the schema's outbox channel, in the order they arrived. */
  const notifications: string[] = [];

  beforeAll(async () => {
    dataSource = await createTestDataSource(
      schema,
      [OutboxMessageEntity, ProcessedEventEntity],
      [CreateMessagingTables1763700000000],
    );
    await dataSource.query(`CREATE TABLE "${schema}"."orders" ("id" text PRIMARY KEY)`);
    listener = new Client({ connectionString: testDatabaseUrl() });
    await listener.connect();
    listener.on('notification', (n) => notifications.push(n.payload ?? ''));
    await listener.query(`LISTEN "${outboxChannelOf(schema)}"`);
  });

  afterAll(async () => {
    await listener?.end();
    await dataSource?.destroy();
    await dropSchema(schema);
  });

  const messagesOf = (orderId: string): OutboxMessage[] => [
    { topic: 'orders.events', type: 'order.placed', aggregateId: orderId, payload: { orderId, n: 1 } },
    { topic: 'orders.commands', type: 'order.ship', aggregateId: orderId, payload: { orderId, n: 2 } },
    { topic: 'orders.events', type: 'order.told', aggregateId: orderId, payload: { orderId, n: 3 } },
  ];

  /** Places the order unless it exists, with its messages guarded by the insert: one statement. */
  async function placeOrder(orderId: string): Promise<{ placed: boolean; eventIds: string[] }> {
    const parameters: unknown[] = [orderId];
    const rows = outbox.rowsFor(dataSource, 'order', messagesOf(orderId), parameters);
    const placed = (await dataSource.query(
      `WITH "order" AS (
         INSERT INTO "${schema}"."orders" ("id") VALUES ($1) ON CONFLICT DO NOTHING RETURNING "id"),
       ${rows.ctes.join(', ')}
       SELECT "id" FROM "order"`,
      parameters,
    )) as unknown[];
    return { placed: placed.length > 0, eventIds: rows.envelopes.map((e) => e.eventId) };
  }

  const outboxOf = async (orderId: string) =>
    (
      (await dataSource.query(
        `SELECT "event_id", "topic", "message_key", "envelope", "headers" FROM "${schema}"."outbox"
          WHERE "message_key" = $1 ORDER BY "id"`,
        [orderId],
      )) as Array<{
        event_id: string;
        topic: string;
        message_key: string;
        envelope: { eventId: string; type: string; payload: unknown };
        headers: unknown;
      }>
    ).map((row) => ({
      eventId: row.event_id,
      topic: row.topic,
      key: row.message_key,
      type: row.envelope.type,
      envelopeEventId: row.envelope.eventId,
      payload: row.envelope.payload,
      headers: row.headers,
    }));

  /** Sends a NOTIFY of its own and waits for it: every earlier commit's NOTIFY has arrived by then. */
  async function drainNotifications(): Promise<string[]> {
    const marker = randomUUID();
    await dataSource.query('SELECT pg_notify($1, $2)', [outboxChannelOf(schema), marker]);
    await waitFor(() => notifications.includes(marker));
    return notifications.splice(0).filter((payload) => payload !== marker);
  }

  it('writes the messages with the change, in the order given, and wakes the relays once', async () => {
    await drainNotifications();
    const orderId = `order-${randomUUID()}`;

    const { placed, eventIds } = await placeOrder(orderId);

    expect(placed).toBe(true);
    expect(await outboxOf(orderId)).toEqual(
      messagesOf(orderId).map((message, i) => ({
        eventId: eventIds[i],
        topic: message.topic,
        key: orderId,
        type: message.type,
        envelopeEventId: eventIds[i],
        payload: message.payload,
        headers: expect.objectContaining({ [MessageHeaders.traceparent]: expect.any(String) }),
      })),
    );
    // One autocommitted statement: its NOTIFYs, one per row, folded into one at its commit.
    expect(await drainNotifications()).toEqual(['']);
  });

  it('writes no message and sends no NOTIFY when the guard CTE wrote nothing', async () => {
    const orderId = `order-${randomUUID()}`;
    await placeOrder(orderId);
    await drainNotifications();

    const again = await placeOrder(orderId);

    expect(again.placed).toBe(false);
    expect((await outboxOf(orderId)).map((m) => m.eventId)).not.toContain(again.eventIds[0]);
    expect(await outboxOf(orderId)).toHaveLength(3);
    expect(await drainNotifications()).toEqual([]);
  });

  it('without a guard, in a transaction: the messages exist if and only if it commits', async () => {
    await drainNotifications();
    const kept = `order-${randomUUID()}`;
    const rolledBack = `order-${randomUUID()}`;
    const write = async (orderId: string, fail: boolean) =>
      dataSource.transaction(async (manager) => {
        const parameters: unknown[] = [orderId];
        const rows = outbox.rowsFor(dataSource, null, messagesOf(orderId).slice(0, 1), parameters);
        await manager.query(
          `WITH "order" AS (INSERT INTO "${schema}"."orders" ("id") VALUES ($1)), ${rows.ctes.join(', ')} SELECT 1`,
          parameters,
        );
        if (fail) throw new Error('the change is abandoned');
      });

    await write(kept, false);
    await expect(write(rolledBack, true)).rejects.toThrow('the change is abandoned');

    expect((await outboxOf(kept)).map((m) => m.type)).toEqual(['order.placed']);
    expect(await outboxOf(rolledBack)).toEqual([]);
    expect(await drainNotifications()).toEqual(['']);
  });

  it('adds nothing to the statement when there are no messages', () => {
    const parameters: unknown[] = ['x'];

    expect(outbox.rowsFor(dataSource, 'order', [], parameters)).toEqual({ ctes: [], envelopes: [] });
    expect(parameters).toEqual(['x']);
  });
});
