import { DataSource } from 'typeorm';
import { ensureDatabase } from './database-url';
import { serviceDataSourceOptions } from './service-data-source';

/** The database of libs/persistence's int-specs: `npm test`'s, else a local one of its own. */
export const persistenceTestDatabaseUrl =
  process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/swapgw_dev_persistence';

/**
 * A service DataSource on that database's `public` schema with one pooled connection, so every
 * statement of a spec runs on the same session (its prepared statements, its place in the pool).
 */
export async function oneConnectionDataSource(): Promise<DataSource> {
  await ensureDatabase(persistenceTestDatabaseUrl);
  return new DataSource(
    serviceDataSourceOptions({
      url: persistenceTestDatabaseUrl,
      schema: 'public',
      entities: [],
      migrations: [],
      poolSize: 1,
    }),
  ).initialize();
}
