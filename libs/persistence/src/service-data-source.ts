import { DataSource, DataSourceOptions, MixedList, EntitySchema } from 'typeorm';
import { assertIdentifier, ensureDatabase, ensureSchema } from './database-url';
import { PreparingClient } from './prepared-statements';

export interface ServiceDataSourceOptions {
  url: string;
  /** The service's own schema: `gateway`, `quote`, `planner`, `signer`, `limit_order`. */
  schema: string;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  entities: MixedList<Function | string | EntitySchema>;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  migrations: MixedList<Function | string>;
  /** Pool size per process. */
  poolSize?: number;
  applicationName?: string;
}

const STATEMENT_TIMEOUT_MS = 15_000;
/** Connecting a new pooled client: longer than this, PostgreSQL is taken to be unreachable (503). */
const CONNECT_TIMEOUT_MS = 15_000;
/**
 * Waiting for a free pooled client while all are busy. That is load, not an outage: longer than a
 * client waits for an HTTP answer, so a flood makes answers slower, never 503. Still bounded, so
 * that requests do not queue forever behind connections stuck on a silent database.
 */
const POOL_WAIT_TIMEOUT_MS = 60_000;

/**
 * TypeORM options for one service: its own schema (and its own migrations table inside it),
 * `synchronize` always off, migrations run explicitly by `prepareDatabase`.
 */
export function serviceDataSourceOptions(options: ServiceDataSourceOptions): DataSourceOptions {
  assertIdentifier(options.schema, 'schema');
  return {
    type: 'postgres',
    url: options.url,
    schema: options.schema,
    entities: options.entities,
    migrations: options.migrations,
    migrationsTableName: 'migrations',
    migrationsTransactionMode: 'each',
    synchronize: false,
    migrationsRun: false,
    logging: ['error'],
    applicationName: options.applicationName ?? options.schema,
    extra: {
      // Statements sent over and over are prepared once per connection (see PreparingClient).
      Client: PreparingClient,
      max: options.poolSize ?? 10,
      // pg-pool applies its one bound to two waits: connecting a new client, and waiting for a free
      // one while all `max` are busy. It is the second's here; PreparingClient bounds its own
      // connect with the first (shorter, so it fires first). An unreachable database still fails at
      // once (refused, reset); only a silent one takes CONNECT_TIMEOUT_MS.
      connectionTimeoutMillis: POOL_WAIT_TIMEOUT_MS,
      connectTimeoutMillis: CONNECT_TIMEOUT_MS,
      // Bound each statement so an unhealthy database yields a 503 rather than a hung request.
      statement_timeout: STATEMENT_TIMEOUT_MS,
    },
  };
}

/** Creates the database and schema if missing, then runs pending migrations of that service. */
export async function prepareDatabase(options: ServiceDataSourceOptions): Promise<void> {
  await ensureDatabase(options.url);
  await ensureSchema(options.url, options.schema);
  const dataSource = new DataSource(serviceDataSourceOptions({ ...options, poolSize: 1 }));
  await dataSource.initialize();
  try {
    await dataSource.runMigrations({ transaction: 'each' });
  } finally {
    await dataSource.destroy();
  }
}

/** Reverts the last migration of that service (Nx target `migrate:revert`). */
export async function revertLastMigration(options: ServiceDataSourceOptions): Promise<void> {
  const dataSource = new DataSource(serviceDataSourceOptions({ ...options, poolSize: 1 }));
  await dataSource.initialize();
  try {
    await dataSource.undoLastMigration({ transaction: 'each' });
  } finally {
    await dataSource.destroy();
  }
}
