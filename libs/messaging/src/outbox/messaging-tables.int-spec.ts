import { DataSource } from 'typeorm';
import { AddMessagingRetentionIndexes1764500000000 } from './add-messaging-retention-indexes.migration';
import { CreateMessagingTables1763700000000 } from './create-messaging-tables.migration';
import { OutboxMessageEntity } from './outbox-message.entity';
import { ProcessedEventEntity } from './processed-event.entity';
import { createTestDataSource, dropSchema, uniqueSuffix } from '../testing/messaging-test-support';

const RETENTION_INDEXES = ['outbox_published_at_idx', 'processed_events_processed_at_idx'];

describe('CreateMessagingTables1763700000000 and AddMessagingRetentionIndexes1764500000000', () => {
  const schema = `msg_tables_${uniqueSuffix()}`;
  let dataSource: DataSource;

  beforeAll(async () => {
    dataSource = await createTestDataSource(
      schema,
      [OutboxMessageEntity, ProcessedEventEntity],
      [CreateMessagingTables1763700000000, AddMessagingRetentionIndexes1764500000000],
    );
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await dropSchema(schema);
  });

  it('creates the tables in the DataSource schema exactly as the entities describe them (no drift)', async () => {
    const tables = await dataSource.query(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name`,
      [schema],
    );
    expect(tables.map((t: { table_name: string }) => t.table_name)).toEqual([
      'migrations',
      'outbox',
      'processed_events',
    ]);
    const pending = await dataSource.driver.createSchemaBuilder().log();
    expect(pending.upQueries.map((q) => q.query)).toEqual([]);
  });

  it('creates the retention indexes, valid', async () => {
    const indexes = (await dataSource.query(
      `SELECT c.relname AS "name", i.indisvalid AS "valid" FROM pg_index i
         JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = $1 AND c.relname = ANY($2) ORDER BY c.relname`,
      [schema, RETENTION_INDEXES],
    )) as Array<{ name: string; valid: boolean }>;
    expect(indexes).toEqual([
      { name: 'outbox_published_at_idx', valid: true },
      { name: 'processed_events_processed_at_idx', valid: true },
    ]);
  });

  it('reverts cleanly', async () => {
    await dataSource.undoLastMigration();
    const indexes = await dataSource.query(
      `SELECT indexname FROM pg_indexes WHERE schemaname = $1 AND indexname = ANY($2)`,
      [schema, RETENTION_INDEXES],
    );
    expect(indexes).toEqual([]);
    await dataSource.undoLastMigration();
    const tables = await dataSource.query(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = $1 AND table_name <> 'migrations'`,
      [schema],
    );
    expect(tables).toEqual([]);
    await dataSource.runMigrations();
  });
});
