import { Controller, Global, INestMicroservice, Module } from '@nestjs/common';
import { Ctx, KafkaContext, Payload } from '@nestjs/microservices';
import { TopicEvents } from './topic-events.decorator';
import { IsInt, IsString, Min } from 'class-validator';
import { Kafka, logLevel } from 'kafkajs';
import { DataSource, MigrationInterface, QueryRunner } from 'typeorm';
import { deadLetterTopicOf } from '@swapgw/contracts';
import { waitFor } from '@swapgw/testing';
import { GlobalClockModule, SystemClock } from '@swapgw/runtime';
import { DeadLetterHeaders } from '../dead-letter/dead-letter';
import { ensureTopics } from '../kafka/ensure-topics';
import { createKafkaMicroservice } from '../bootstrap/create-kafka-microservice';
import { MessagingModule } from '../messaging.module';
import { CreateMessagingTables1763700000000 } from '../outbox/create-messaging-tables.migration';
import { Outbox } from '../outbox/outbox';
import { OutboxMessageEntity } from '../outbox/outbox-message.entity';
import { OutboxRelay } from '../outbox/outbox-relay';
import { ProcessedEventEntity } from '../outbox/processed-event.entity';
import { schemaOf } from '../outbox/schema-of';
import {
  createTestDataSource,
  dropSchema,
  groupCaughtUp,
  produceRaw,
  RefusingProxy,
  testDatabaseUrl,
  testKafkaSettings,
  TopicReader,
  uniqueSuffix,
  withHostPort,
} from '../testing/messaging-test-support';
import { IdempotentConsumer } from './idempotent-consumer';

/** What the consumer applies: one credit row per applied event, so a duplicate would show. */
class CreditApplied {
  @IsString()
  account!: string;

  @IsInt()
  @Min(1)
  amount!: number;
}

class CreateCreditsTable1763700000001 implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
    const s = schemaOf(queryRunner.connection);
    await queryRunner.query(
      `CREATE TABLE "${s}"."credits" ("id" serial PRIMARY KEY, "event_id" uuid NOT NULL, "account" text NOT NULL, "amount" integer NOT NULL)`,
    );
  }
  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "${schemaOf(queryRunner.connection)}"."credits"`);
  }
}

const suffix = uniqueSuffix();
const topic = `itest.credits.${suffix}`;
const groupId = `itest-ledger-${suffix}`;
const schema = `msg_it_${suffix}`;

/** Failures injected per account, to exercise redelivery (transient) and parking (poison). */
const injected = {
  transientLeft: new Map<string, number>(),
  poisonAccounts: new Set<string>(),
  attempts: new Map<string, number>(),
};

@Controller()
class LedgerController {
  constructor(private readonly consumer: IdempotentConsumer) {}

  @TopicEvents(topic)
  async onCredit(@Payload() message: unknown, @Ctx() ctx: KafkaContext): Promise<void> {
    await this.consumer.consume(message, ctx, {
      'credit.applied': {
        payload: CreditApplied,
        // Credits to `unwanted-*` accounts are none of this consumer's business (checked before any transaction).
        wanted: (payload: CreditApplied) => !payload.account.startsWith('unwanted-'),
        handle: async (payload: CreditApplied, envelope, manager) => {
          injected.attempts.set(payload.account, (injected.attempts.get(payload.account) ?? 0) + 1);
          await manager.query(
            `INSERT INTO "${schema}"."credits" ("event_id", "account", "amount") VALUES ($1, $2, $3)`,
            [envelope.eventId, payload.account, payload.amount],
          );
          const transient = injected.transientLeft.get(payload.account) ?? 0;
          if (transient > 0) {
            injected.transientLeft.set(payload.account, transient - 1);
            throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
          }
          if (injected.poisonAccounts.has(payload.account))
            throw new Error(`cannot credit ${payload.account}`);
        },
      },
      'credit.audited': { ignore: true },
    });
  }
}

function ledgerApp(dataSource: DataSource) {
  @Global()
  @Module({ providers: [{ provide: DataSource, useValue: dataSource }], exports: [DataSource] })
  class TestDatabaseModule {}

  @Module({
    imports: [
      TestDatabaseModule,
      GlobalClockModule.of(new SystemClock()),
      MessagingModule.forRoot({
        clientId: 'itest-ledger',
        groupId,
        settings: testKafkaSettings('itest-ledger'),
      }),
    ],
    controllers: [LedgerController],
  })
  class LedgerModule {}
  return LedgerModule;
}

describe('outbox relay to idempotent consumer over Kafka and PostgreSQL', () => {
  const settings = testKafkaSettings('itest-outbox');
  const outbox = new Outbox(new SystemClock());
  let dataSource: DataSource;
  /** The consumer app's own DataSource, through a proxy that can make PostgreSQL unreachable. */
  let consumerDataSource: DataSource;
  let databaseProxy: RefusingProxy;
  let app: INestMicroservice | null = null;
  const relays: OutboxRelay[] = [];
  let dlq: TopicReader;
  let topicReader: TopicReader;

  const credits = async (account: string): Promise<number> =>
    Number(
      (
        await dataSource.query(`SELECT count(*)::int AS n FROM "${schema}"."credits" WHERE "account" = $1`, [
          account,
        ])
      )[0].n,
    );
  const unpublished = async (): Promise<number> =>
    Number(
      (
        await dataSource.query(
          `SELECT count(*)::int AS n FROM "${schema}"."outbox" WHERE "published_at" IS NULL`,
        )
      )[0].n,
    );
  const enqueueCredit = (account: string, amount = 10) =>
    dataSource.transaction((manager) =>
      outbox.enqueue(manager, {
        topic,
        type: 'credit.applied',
        aggregateId: account,
        payload: { account, amount },
      }),
    );

  async function startApp(): Promise<void> {
    app = await createKafkaMicroservice(ledgerApp(consumerDataSource), settings, groupId, {
      logger: ['error'],
    });
    await app.listen();
  }
  async function stopApp(): Promise<void> {
    await app?.close();
    app = null;
  }
  function startRelay(options: ConstructorParameters<typeof OutboxRelay>[2] = {}): Promise<OutboxRelay> {
    const relay = new OutboxRelay(dataSource, settings, { sweepIntervalMs: 300, ...options });
    relays.push(relay);
    return relay.start().then(() => relay);
  }

  beforeAll(async () => {
    await ensureTopics(settings, [
      { name: topic, partitions: 3 },
      { name: deadLetterTopicOf(topic), partitions: 1 },
    ]);
    dataSource = await createTestDataSource(
      schema,
      [OutboxMessageEntity, ProcessedEventEntity],
      [CreateMessagingTables1763700000000, CreateCreditsTable1763700000001],
    );
    const database = new URL(testDatabaseUrl());
    databaseProxy = new RefusingProxy({ host: database.hostname, port: Number(database.port || 5432) });
    const proxyPort = await databaseProxy.start();
    consumerDataSource = await createTestDataSource(
      schema,
      [OutboxMessageEntity, ProcessedEventEntity],
      [CreateMessagingTables1763700000000, CreateCreditsTable1763700000001],
      withHostPort(testDatabaseUrl(), '127.0.0.1', proxyPort),
    );
    dlq = await new TopicReader(settings, deadLetterTopicOf(topic)).start();
    topicReader = await new TopicReader(settings, topic).start();
  });

  afterAll(async () => {
    await Promise.allSettled([stopApp(), ...relays.map((r) => r.stop()), dlq?.stop(), topicReader?.stop()]);
    await consumerDataSource?.destroy().catch(() => undefined);
    await databaseProxy?.stop();
    await dataSource?.destroy();
    await dropSchema(schema);
  });

  it('refuses to enqueue outside a transaction', async () => {
    await expect(
      outbox.enqueue(dataSource.manager, { topic, type: 'credit.applied', aggregateId: 'x', payload: {} }),
    ).rejects.toThrow(/open transaction/);
  });

  it('publishes a row committed while no relay ran, once a relay starts, and applies it once', async () => {
    const envelope = await enqueueCredit('acct-before-relay', 25);
    expect(await unpublished()).toBe(1);
    await startApp();
    await startRelay();
    await waitFor(async () => (await credits('acct-before-relay')) === 1, {
      description: 'the credit to be applied',
      timeoutMs: 30_000,
    });
    await waitFor(async () => (await unpublished()) === 0, {
      description: 'the outbox row to be marked published',
      timeoutMs: 30_000,
    });
    const processed = await dataSource.query(
      `SELECT 1 FROM "${schema}"."processed_events" WHERE "consumer_group" = $1 AND "event_id" = $2`,
      [groupId, envelope.eventId],
    );
    expect(processed).toHaveLength(1);
    const onTopic = topicReader.messages.filter((m) => m.headers['x-event-id'] === envelope.eventId);
    expect(onTopic).toHaveLength(1);
    expect(onTopic[0].key).toBe('acct-before-relay');
    expect(onTopic[0].headers.traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$/);
    expect(onTopic[0].headers['x-request-id']).toBeTruthy();
  });

  it('acknowledges a message its handler does not want without a transaction: no change, no processed_events row', async () => {
    const unwanted = await enqueueCredit('unwanted-acct', 3);
    await enqueueCredit('acct-after-unwanted', 3);
    await waitFor(async () => (await credits('acct-after-unwanted')) === 1, {
      description: 'the wanted credit to be applied',
      timeoutMs: 30_000,
    });
    await waitFor(() => groupCaughtUp(settings, groupId, topic), {
      description: 'the consumer to catch up',
      timeoutMs: 30_000,
    });
    expect(await credits('unwanted-acct')).toBe(0);
    expect(injected.attempts.has('unwanted-acct')).toBe(false);
    const processed = await dataSource.query(
      `SELECT 1 FROM "${schema}"."processed_events" WHERE "event_id" = $1`,
      [unwanted.eventId],
    );
    expect(processed).toHaveLength(0);
  });

  it('republishes after a relay died between produce and commit, and the consumer applies the change once', async () => {
    await Promise.all(relays.splice(0).map((r) => r.stop()));
    let crashes = 0;
    await startRelay({
      afterProduceHook: () => {
        if (crashes === 0) {
          crashes += 1;
          throw new Error('relay killed after produce');
        }
      },
    });
    const envelope = await enqueueCredit('acct-crash', 7);
    await waitFor(async () => (await unpublished()) === 0, {
      description: 'the row to be published after the crash',
      timeoutMs: 30_000,
    });
    await waitFor(
      () => topicReader.messages.filter((m) => m.headers['x-event-id'] === envelope.eventId).length === 2,
      { description: 'both copies on the topic', timeoutMs: 30_000 },
    );
    expect(crashes).toBe(1);
    await waitFor(() => groupCaughtUp(settings, groupId, topic), {
      description: 'the consumer to catch up',
      timeoutMs: 30_000,
    });
    expect(await credits('acct-crash')).toBe(1);
  });

  it('keeps the order of one aggregate with two relays publishing at once', async () => {
    await startRelay();
    const sent: string[] = [];
    for (let i = 0; i < 20; i++) sent.push((await enqueueCredit('acct-ordered', i + 1)).eventId);
    await waitFor(async () => (await credits('acct-ordered')) === 20, {
      description: 'all ordered credits applied',
      timeoutMs: 30_000,
    });
    const applied = await dataSource.query(
      `SELECT "event_id" FROM "${schema}"."credits" WHERE "account" = 'acct-ordered' ORDER BY "id"`,
    );
    expect(applied.map((r: { event_id: string }) => r.event_id)).toEqual(sent);
  });

  it('parks an invalid message on the DLQ with the reason and still consumes the next valid one', async () => {
    await produceRaw(settings, topic, [
      {
        key: 'acct-bad',
        value: JSON.stringify({ type: 'credit.applied', payload: { account: 'acct-bad', amount: 1 } }),
      },
      { key: 'acct-bad', value: 'not json at all' },
    ]);
    const bad = await enqueueCredit('acct-bad', -5); // valid envelope, invalid payload (amount < 1)
    const unknownType = await dataSource.transaction((m) =>
      outbox.enqueue(m, {
        topic,
        type: 'credit.reversed',
        aggregateId: 'acct-bad',
        payload: { account: 'acct-bad' },
      }),
    );
    await dataSource.transaction((m) =>
      outbox.enqueue(m, {
        topic,
        type: 'credit.audited',
        aggregateId: 'acct-bad',
        payload: { note: 'for another consumer' },
      }),
    );
    await enqueueCredit('acct-bad', 3);
    await waitFor(async () => (await credits('acct-bad')) === 1, {
      description: 'the valid credit after the invalid ones',
      timeoutMs: 30_000,
    });
    await waitFor(() => dlq.messages.filter((m) => m.key === 'acct-bad').length === 4, {
      description: 'four messages on the DLQ',
      timeoutMs: 30_000,
    });
    const parked = dlq.messages.filter((m) => m.key === 'acct-bad');
    const reasons = parked.map((m) => m.headers[DeadLetterHeaders.reason]);
    expect(reasons[0]).toMatch(/invalid envelope: eventId/);
    expect(reasons[1]).toBe('message is not a JSON object');
    expect(reasons[2]).toMatch(/payload\.amount/);
    expect(reasons[3]).toBe('no handler for type credit.reversed');
    for (const m of parked) {
      expect(m.headers[DeadLetterHeaders.originalTopic]).toBe(topic);
      expect(m.headers[DeadLetterHeaders.originalPartition]).toMatch(/^\d+$/);
      expect(m.headers[DeadLetterHeaders.originalOffset]).toMatch(/^\d+$/);
    }
    expect(parked[1].value).toBe('not json at all');
    expect(JSON.parse(parked[2].value!).eventId).toBe(bad.eventId);
    expect(JSON.parse(parked[3].value!).eventId).toBe(unknownType.eventId);
  });

  it('redelivers after a transient database failure and applies the change once', async () => {
    injected.transientLeft.set('acct-transient', 2);
    await enqueueCredit('acct-transient', 4);
    await waitFor(async () => (await credits('acct-transient')) === 1, {
      description: 'the credit applied after redelivery',
      timeoutMs: 60000,
    });
    expect(injected.attempts.get('acct-transient')).toBe(3);
  });

  it('does not commit a message while PostgreSQL is unreachable, and applies it once when it is back', async () => {
    databaseProxy.setRefusing(true);
    const envelope = await enqueueCredit('acct-db-down', 6);
    await waitFor(() => topicReader.messages.some((m) => m.headers['x-event-id'] === envelope.eventId), {
      description: 'the message on the topic',
      timeoutMs: 30_000,
    });
    const refusedBefore = databaseProxy.refused;
    // Each redelivery is one more connection attempt refused by the proxy.
    await waitFor(() => databaseProxy.refused >= refusedBefore + 3, {
      description: 'three delivery attempts while the database is down',
      timeoutMs: 60000,
    });
    expect(await credits('acct-db-down')).toBe(0);
    expect(await groupCaughtUp(settings, groupId, topic)).toBe(false);
    databaseProxy.setRefusing(false);
    await waitFor(async () => (await credits('acct-db-down')) === 1, {
      description: 'the credit once the database is back',
      timeoutMs: 90000,
    });
    await waitFor(() => groupCaughtUp(settings, groupId, topic), {
      description: 'the consumer to catch up',
      timeoutMs: 60000,
    });
    expect(await credits('acct-db-down')).toBe(1);
  });

  it('parks a message whose handler keeps failing after 3 attempts and moves on', async () => {
    injected.poisonAccounts.add('acct-poison');
    const poison = await enqueueCredit('acct-poison', 9);
    await enqueueCredit('acct-poison-next', 9);
    const acctNextKey = 'acct-poison-next';
    await waitFor(() => dlq.messages.some((m) => m.headers['x-event-id'] === poison.eventId), {
      description: 'the poison message on the DLQ',
      timeoutMs: 60000,
    });
    expect(injected.attempts.get('acct-poison')).toBe(3);
    expect(await credits('acct-poison')).toBe(0);
    const parked = dlq.messages.find((m) => m.headers['x-event-id'] === poison.eventId)!;
    expect(parked.headers[DeadLetterHeaders.reason]).toMatch(
      /handler failed 3 times: cannot credit acct-poison/,
    );
    await waitFor(async () => (await credits(acctNextKey)) === 1, {
      description: 'the message after the poison one',
      timeoutMs: 30_000,
    });
  });

  it('changes nothing when the topic is replayed from the beginning', async () => {
    await waitFor(() => groupCaughtUp(settings, groupId, topic), {
      description: 'the consumer to catch up before the replay',
      timeoutMs: 30_000,
    });
    const before = await dataSource.query(
      `SELECT "account", count(*)::int AS n FROM "${schema}"."credits" GROUP BY "account" ORDER BY "account"`,
    );
    const processedBefore = (
      await dataSource.query(`SELECT count(*)::int AS n FROM "${schema}"."processed_events"`)
    )[0].n;
    const dlqBefore = dlq.messages.length;
    await stopApp();
    const admin = new Kafka({
      clientId: 'itest-replay',
      brokers: settings.brokers,
      logLevel: logLevel.NOTHING,
    }).admin();
    await admin.connect();
    await admin.resetOffsets({ groupId, topic, earliest: true });
    await admin.disconnect();
    expect(await groupCaughtUp(settings, groupId, topic)).toBe(false);
    await startApp();
    await waitFor(() => groupCaughtUp(settings, groupId, topic), {
      description: 'the replay to reach the end of the topic',
      timeoutMs: 60000,
    });
    const after = await dataSource.query(
      `SELECT "account", count(*)::int AS n FROM "${schema}"."credits" GROUP BY "account" ORDER BY "account"`,
    );
    expect(after).toEqual(before);
    expect(
      (await dataSource.query(`SELECT count(*)::int AS n FROM "${schema}"."processed_events"`))[0].n,
    ).toBe(processedBefore);
    // Invalid messages are parked again on replay (they were never applied): that is the only effect.
    expect(dlq.messages.length).toBeGreaterThanOrEqual(dlqBefore);
  });
});
