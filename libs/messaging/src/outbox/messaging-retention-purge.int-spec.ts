import { Test } from '@nestjs/testing';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { waitFor } from '@swapgw/testing';
import { GlobalClockModule, SystemClock } from '@swapgw/runtime';
import { MessagingModule } from '../messaging.module';
import {
  createTestDataSource,
  dropSchema,
  testDatabaseUrl,
  uniqueSuffix,
} from '../testing/messaging-test-support';
import { AddMessagingRetentionIndexes1764500000000 } from './add-messaging-retention-indexes.migration';
import { CreateMessagingTables1763700000000 } from './create-messaging-tables.migration';
import { MessagingRetentionPurge } from './messaging-retention-purge';
import { OutboxMessageEntity } from './outbox-message.entity';
import { ProcessedEventEntity } from './processed-event.entity';

const OUTBOX_HOURS = 24;
const PROCESSED_HOURS = 360;

describe('MessagingRetentionPurge', () => {
  const schema = `msg_retention_${uniqueSuffix()}`;
  let dataSource: DataSource;

  beforeAll(async () => {
    dataSource = await createTestDataSource(
      schema,
      [OutboxMessageEntity, ProcessedEventEntity],
      [CreateMessagingTables1763700000000, AddMessagingRetentionIndexes1764500000000],
    );
  });

  beforeEach(async () => {
    await dataSource.query(`TRUNCATE "${schema}"."outbox", "${schema}"."processed_events"`);
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await dropSchema(schema);
  });

  const purgeWith = (options: ConstructorParameters<typeof MessagingRetentionPurge>[1] = {}) =>
    new MessagingRetentionPurge(dataSource, {
      outboxRetentionHours: OUTBOX_HOURS,
      processedEventsRetentionHours: PROCESSED_HOURS,
      ...options,
    });

  /** `count` outbox rows with topic `label`, created `createdHoursAgo`, published `publishedHoursAgo` (null: not yet). */
  async function addOutboxRows(
    label: string,
    count: number,
    createdHoursAgo: number,
    publishedHoursAgo: number | null,
  ): Promise<void> {
    await dataSource.query(
      `INSERT INTO "${schema}"."outbox" ("event_id", "topic", "message_key", "envelope", "headers", "created_at", "published_at")
       SELECT gen_random_uuid(), $1, 'k', '{}'::jsonb, '{}'::jsonb,
              now() - make_interval(hours => $3::int),
              CASE WHEN $4::int IS NULL THEN NULL ELSE now() - make_interval(hours => $4::int) END
         FROM generate_series(1, $2::int)`,
      [label, count, createdHoursAgo, publishedHoursAgo],
    );
  }

  async function addProcessedEvents(group: string, count: number, hoursAgo: number): Promise<void> {
    await dataSource.query(
      `INSERT INTO "${schema}"."processed_events" ("consumer_group", "event_id", "processed_at")
       SELECT $1, gen_random_uuid(), now() - make_interval(hours => $3::int) FROM generate_series(1, $2::int)`,
      [group, count, hoursAgo],
    );
  }

  async function outboxCounts(): Promise<Record<string, number>> {
    const rows = (await dataSource.query(
      `SELECT "topic", count(*)::int AS "n" FROM "${schema}"."outbox" GROUP BY "topic"`,
    )) as Array<{ topic: string; n: number }>;
    return Object.fromEntries(rows.map((r) => [r.topic, r.n]));
  }

  async function processedCounts(): Promise<Record<string, number>> {
    const rows = (await dataSource.query(
      `SELECT "consumer_group", count(*)::int AS "n" FROM "${schema}"."processed_events" GROUP BY "consumer_group"`,
    )) as Array<{ consumer_group: string; n: number }>;
    return Object.fromEntries(rows.map((r) => [r.consumer_group, r.n]));
  }

  it('deletes outbox rows published past retention, never unpublished or recently published ones', async () => {
    await addOutboxRows('old-published', 3, OUTBOX_HOURS + 30, OUTBOX_HOURS + 1);
    await addOutboxRows('recent-published', 2, OUTBOX_HOURS + 30, OUTBOX_HOURS - 1);
    // Written long ago and still not published (Kafka was away): it must stay until published.
    await addOutboxRows('old-unpublished', 4, OUTBOX_HOURS * 10, null);
    await addOutboxRows('new-unpublished', 1, 0, null);

    const result = await purgeWith().purge();

    expect(result).toEqual({ outbox: 3, processedEvents: 0, complete: true });
    expect(await outboxCounts()).toEqual({
      'recent-published': 2,
      'old-unpublished': 4,
      'new-unpublished': 1,
    });
  });

  it('deletes processed_events past retention, of every consumer group, and keeps recent ones', async () => {
    await addProcessedEvents('planner', 5, PROCESSED_HOURS + 1);
    await addProcessedEvents('gateway-webhooks', 2, PROCESSED_HOURS + 48);
    await addProcessedEvents('planner-recent', 3, PROCESSED_HOURS - 1);
    await addProcessedEvents('gateway-recent', 1, 0);

    const result = await purgeWith().purge();

    expect(result).toEqual({ outbox: 0, processedEvents: 7, complete: true });
    expect(await processedCounts()).toEqual({ 'planner-recent': 3, 'gateway-recent': 1 });
  });

  it('works off more rows than one batch, and a backlog over several passes', async () => {
    await addOutboxRows('old-published', 2_345, OUTBOX_HOURS + 5, OUTBOX_HOURS + 2);
    await addOutboxRows('recent-published', 10, 1, 0);
    await addProcessedEvents('old', 3_210, PROCESSED_HOURS + 3);
    await addProcessedEvents('recent', 10, 1);

    // 500 rows per statement: one pass deletes them all, in several statements.
    expect(await purgeWith({ batchSize: 500 }).purge()).toEqual({
      outbox: 2_345,
      processedEvents: 3_210,
      complete: true,
    });
    expect(await outboxCounts()).toEqual({ 'recent-published': 10 });
    expect(await processedCounts()).toEqual({ recent: 10 });

    // At most 2 statements of 500 per table and pass: the pass says more is due.
    await addProcessedEvents('old', 2_100, PROCESSED_HOURS + 3);
    const bounded = purgeWith({ batchSize: 500, maxBatchesPerPass: 2 });
    expect(await bounded.purge()).toEqual({ outbox: 0, processedEvents: 1_000, complete: false });
    expect(await bounded.purge()).toEqual({ outbox: 0, processedEvents: 1_000, complete: false });
    expect(await bounded.purge()).toEqual({ outbox: 0, processedEvents: 100, complete: true });
    expect(await processedCounts()).toEqual({ recent: 10 });
  });

  it('runs as a loop: an incomplete pass is followed at once by the next, and stop() ends it', async () => {
    await addProcessedEvents('old', 1_500, PROCESSED_HOURS + 3);
    await addOutboxRows('old-published', 700, OUTBOX_HOURS + 5, OUTBOX_HOURS + 2);
    // One statement of 100 per table and pass, passes an hour apart: only the "more is due" rule
    // can delete everything within the wait.
    const purge = purgeWith({ batchSize: 100, maxBatchesPerPass: 1, intervalMs: 3_600_000, firstDelayMs: 0 });
    purge.start();
    try {
      await waitFor(async () => Object.keys(await processedCounts()).length === 0, {
        timeoutMs: 30_000,
        description: 'processed_events to be purged',
      });
      expect(await outboxCounts()).toEqual({});
    } finally {
      await purge.stop();
    }
  });

  it('skips the pass while another instance holds the schema purge lock', async () => {
    await addProcessedEvents('old', 10, PROCESSED_HOURS + 3);
    await addOutboxRows('old-published', 10, OUTBOX_HOURS + 5, OUTBOX_HOURS + 2);
    const other = new Client({ connectionString: testDatabaseUrl() });
    await other.connect();
    try {
      await other.query('BEGIN');
      await other.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [`messaging_retention_${schema}`]);
      expect(await purgeWith().purge()).toEqual({ outbox: 0, processedEvents: 0, complete: true });
      // The outbox relay's lock is another one: publishing and purging never wait for each other.
      await other.query('ROLLBACK');
      await other.query('BEGIN');
      await other.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [`outbox_${schema}`]);
      expect(await purgeWith().purge()).toEqual({ outbox: 10, processedEvents: 10, complete: true });
    } finally {
      await other.query('ROLLBACK').catch(() => undefined);
      await other.end();
    }
  });

  it('finds nothing to purge in a schema without the messaging tables', async () => {
    const bare = `msg_retention_bare_${uniqueSuffix()}`;
    const bareSource = await createTestDataSource(bare, [], []);
    try {
      const purge = new MessagingRetentionPurge(bareSource);
      expect(await purge.purge()).toEqual({ outbox: 0, processedEvents: 0, complete: true });
    } finally {
      await bareSource.destroy();
      await dropSchema(bare);
    }
  });

  it('is started by MessagingModule with a consumer group, and stopped with the application', async () => {
    await addProcessedEvents('old', 3, PROCESSED_HOURS + 3);
    await addOutboxRows('old-published', 2, OUTBOX_HOURS + 5, OUTBOX_HOURS + 2);
    // The app's TypeOrmModule, reduced to the DataSource it provides.
    const database = {
      module: class TestDatabaseModule {},
      global: true,
      providers: [{ provide: DataSource, useValue: dataSource }],
      exports: [DataSource],
    };
    const moduleRef = await Test.createTestingModule({
      imports: [
        database,
        GlobalClockModule.of(new SystemClock()),
        MessagingModule.forRoot({
          clientId: 'retention-it',
          groupId: `retention-it-${schema}`,
          settings: { brokers: ['127.0.0.1:1'], clientId: 'retention-it', instanceId: 'i1' },
          consumerLag: false,
          retention: {
            firstDelayMs: 0,
            outboxRetentionHours: OUTBOX_HOURS,
            processedEventsRetentionHours: PROCESSED_HOURS,
          },
        }),
      ],
    }).compile();
    moduleRef.useLogger(false);
    await moduleRef.init();
    try {
      await waitFor(
        async () =>
          Object.keys(await processedCounts()).length === 0 && Object.keys(await outboxCounts()).length === 0,
        { timeoutMs: 15_000, description: 'the module purge to run' },
      );
    } finally {
      await moduleRef.close();
    }
    expect(moduleRef.get(MessagingRetentionPurge)).toBeInstanceOf(MessagingRetentionPurge);
  });
});
