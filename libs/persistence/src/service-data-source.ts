import { explainDatabaseConnectionError, pgConnectionConfig } from '@swapgw/runtime';
import type { TlsOptions } from 'node:tls';
import { DataSource, DataSourceOptions, MixedList, EntitySchema } from 'typeorm';
import { assertIdentifier, databaseNameOf, ensureDatabase, ensureSchema } from './database-url';
import { connectPgClient } from './pg-connection';
import { PreparingClient } from './prepared-statements';
import { prioritizedPgDriver } from './prioritized-pool';

export interface ServiceDataSourceOptions {
  /** The app's connection URL (DatabaseEnvironment.databaseUrl: TLS settings as libpq parameters). */
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
  const connection = pgConnectionConfig(options.url);
  return {
    type: 'postgres',
    url: connection.connectionString,
    ssl: connection.ssl as TlsOptions | false,
    schema: options.schema,
    entities: options.entities,
    migrations: options.migrations,
    migrationsTableName: 'migrations',
    migrationsTransactionMode: 'each',
    synchronize: false,
    migrationsRun: false,
    logging: ['error'],
    applicationName: options.applicationName ?? options.schema,
    // Connections go to the commands, then the quotes, a client waits on first (withConnectionPriority).
    driver: prioritizedPgDriver,
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

/** First key of the migrations' advisory locks ("swgm"); the second is the schema's hash. */
const MIGRATION_LOCK_NAMESPACE = 0x7377676d;

/**
 * Runs `work` holding the PostgreSQL advisory lock of `schema`'s migrations, on a session of its
 * own in the service's database (advisory locks are per database): instances of one app that start
 * together, or a migration Job beside a rolling start, migrate one after the other, and the later
 * ones find nothing left to run.
 */
export async function withMigrationLock<T>(url: string, schema: string, work: () => Promise<T>): Promise<T> {
  const lockClient = await connectPgClient(url, { connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  try {
    await lockClient.query('SELECT pg_advisory_lock($1, hashtext($2))', [MIGRATION_LOCK_NAMESPACE, schema]);
    return await work();
  } finally {
    // Ending the session releases the lock too; unlock explicitly to free it at once.
    await lockClient
      .query('SELECT pg_advisory_unlock($1, hashtext($2))', [MIGRATION_LOCK_NAMESPACE, schema])
      .catch(() => undefined);
    await lockClient.end();
  }
}

/**
 * Creates the database and schema if missing, then runs pending migrations of that service, under
 * the schema's migration lock (withMigrationLock).
 */
export async function prepareDatabase(options: ServiceDataSourceOptions): Promise<void> {
  await ensureDatabase(options.url);
  await withMigrationLock(options.url, options.schema, async () => {
    await ensureSchema(options.url, options.schema);
    const dataSource = new DataSource(serviceDataSourceOptions({ ...options, poolSize: 1 }));
    await initializeExplained(dataSource, options.url);
    try {
      await dataSource.runMigrations({ transaction: 'each' });
    } finally {
      await dataSource.destroy();
    }
  });
}

/** initialize(), a failure caused by a setting thrown as a DatabaseConnectionSettingError naming it. */
async function initializeExplained(dataSource: DataSource, url: string): Promise<DataSource> {
  try {
    return await dataSource.initialize();
  } catch (error) {
    throw explainDatabaseConnectionError(error, url);
  }
}

/** Thrown at start when migrations are left to a separate step (MIGRATE_ON_START=false) and some are pending. */
export class PendingMigrationsError extends Error {}

/**
 * What an app does at start with MIGRATE_ON_START=false: migrates nothing, and refuses to start
 * (PendingMigrationsError) while the schema lacks migrations this version needs, so that it never
 * runs against tables older than its code. The migration step (`cli/migrate.js up`, the Kubernetes
 * Job) is what applies them.
 */
export async function assertDatabaseMigrated(options: ServiceDataSourceOptions): Promise<void> {
  const dataSource = new DataSource(serviceDataSourceOptions({ ...options, poolSize: 1 }));
  await initializeExplained(dataSource, options.url).catch((error: { code?: string }) => {
    if (error.code === '3D000')
      throw new PendingMigrationsError(
        `MIGRATE_ON_START is false and database "${databaseNameOf(options.url)}" does not exist; ` +
          'run the migration step first (cli/migrate.js up, the migrate Job)',
      );
    throw error;
  });
  try {
    // Asked first, so that a missing table is an answer rather than a failed query in the logs.
    const [{ present }] = (await dataSource.query(
      `SELECT to_regclass('"${options.schema}"."migrations"') IS NOT NULL AS present`,
    )) as { present: boolean }[];
    const applied = new Set<string>(
      present
        ? (
            (await dataSource.query(`SELECT name FROM "${options.schema}"."migrations"`)) as {
              name: string;
            }[]
          ).map((r) => r.name)
        : [],
    );
    const pending = dataSource.migrations
      .map((m) => m.name ?? m.constructor.name)
      .filter((n) => !applied.has(n));
    if (pending.length > 0)
      throw new PendingMigrationsError(
        `MIGRATE_ON_START is false and schema "${options.schema}" lacks ${pending.length} migration(s): ` +
          `${pending.join(', ')}; run the migration step first (cli/migrate.js up, the migrate Job)`,
      );
  } finally {
    await dataSource.destroy();
  }
}

/** At start: migrate (MIGRATE_ON_START, the default), or only check that the migration step ran. */
export function prepareOrCheckDatabase(
  options: ServiceDataSourceOptions,
  migrateOnStart: boolean,
): Promise<void> {
  return migrateOnStart ? prepareDatabase(options) : assertDatabaseMigrated(options);
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
