import { DataSource } from 'typeorm';
import { CreateMessagingTables1763700000000 } from './create-messaging-tables.migration';
import { OutboxMessageEntity } from './outbox-message.entity';
import { ProcessedEventEntity } from './processed-event.entity';
import { createTestDataSource, dropSchema, uniqueSuffix } from '../testing/messaging-test-support';

describe('CreateMessagingTables1763700000000', () => {
  const schema = `msg_tables_${uniqueSuffix()}`;
  let dataSource: DataSource;

  beforeAll(async () => {
    dataSource = await createTestDataSource(
      schema,
      [OutboxMessageEntity, ProcessedEventEntity],
      [CreateMessagingTables1763700000000],
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

  it('reverts cleanly', async () => {
    await dataSource.undoLastMigration();
    const tables = await dataSource.query(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = $1 AND table_name <> 'migrations'`,
      [schema],
    );
    expect(tables).toEqual([]);
    await dataSource.runMigrations();
  });
});
