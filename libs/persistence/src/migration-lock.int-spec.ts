import { Client } from 'pg';
import { MigrationInterface, QueryRunner } from 'typeorm';
import {
  APP_NAMES,
  AppHandle,
  AppName,
  freePort,
  KafkaBroker,
  startApp,
  startKafkaBroker,
  testEnv,
} from '@swapgw/testing';
import { dropDatabase, ensureDatabase, withDatabase } from './database-url';
import { assertDatabaseMigrated, PendingMigrationsError, prepareDatabase } from './service-data-source';

/** Each app's schema, where its `migrations` table is. */
const SCHEMA_OF: Record<(typeof APP_NAMES)[number], string> = {
  gateway: 'gateway',
  'quote-service': 'quote',
  'execution-planner': 'planner',
  'signer-surface': 'signer',
  'limit-order-service': 'limit_order',
};

async function migrationCounts(url: string, schema: string): Promise<{ name: string; n: number }[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query(
      `SELECT name, count(*)::int AS n FROM "${schema}"."migrations" GROUP BY name ORDER BY name`,
    );
    return rows as { name: string; n: number }[];
  } finally {
    await client.end();
  }
}

class SlowCreateTable1700000000000 implements MigrationInterface {
  name = 'SlowCreateTable1700000000000';
  async up(queryRunner: QueryRunner): Promise<void> {
    // Long enough that processes starting together overlap inside it without the lock.
    await queryRunner.query('SELECT pg_sleep(0.3)');
    await queryRunner.query('CREATE TABLE "lock_test"."things" (id int PRIMARY KEY)');
  }
  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE "lock_test"."things"');
  }
}

describe('migrations under the schema lock', () => {
  const url = withDatabase(testEnv().databaseUrl, `swapgw_int_migrate_lock_${process.pid}`);
  const options = { url, schema: 'lock_test', entities: [], migrations: [SlowCreateTable1700000000000] };

  afterAll(() => dropDatabase(url));

  it('lets preparations that start together on a fresh database migrate it once, none failing', async () => {
    await expect(assertDatabaseMigrated(options)).rejects.toThrow(PendingMigrationsError);
    await ensureDatabase(url);
    await expect(assertDatabaseMigrated(options)).rejects.toThrow(
      /MIGRATE_ON_START is false and schema "lock_test" lacks 1 migration\(s\): SlowCreateTable1700000000000/,
    );
    await Promise.all([1, 2, 3, 4].map(() => prepareDatabase(options)));
    expect(await migrationCounts(url, 'lock_test')).toEqual([{ name: 'SlowCreateTable1700000000000', n: 1 }]);
    await expect(assertDatabaseMigrated(options)).resolves.toBeUndefined();
  });
});

describe('every app started twice at once on an empty database', () => {
  const url = withDatabase(testEnv().databaseUrl, `swapgw_int_migrate_apps_${process.pid}`);
  // A broker of its own: these instances join the apps' real consumer groups, which must not take
  // partitions from apps other suites run on the shared broker.
  let broker: KafkaBroker;
  const started: AppHandle[] = [];

  beforeAll(async () => {
    broker = await startKafkaBroker();
  }, 180_000);

  afterAll(async () => {
    await Promise.all(started.map((app) => app.stop()));
    await broker?.stop();
    await dropDatabase(url);
  });

  const envOf = (app: string, extra: Record<string, string> = {}) => ({
    DATABASE_URL: url,
    KAFKA_BROKERS: broker.brokers,
    ...(app === 'gateway'
      ? {
          KAFKA_GROUP_ID: `gateway-migrate-${process.pid}`,
          WEBHOOK_KAFKA_GROUP_ID: `webhooks-migrate-${process.pid}`,
        }
      : {}),
    ...extra,
  });

  it('with MIGRATE_ON_START=false on the empty database, an app refuses to start and says why', async () => {
    await ensureDatabase(url);
    await expect(
      startApp('limit-order-service', { env: envOf('limit-order-service', { MIGRATE_ON_START: 'false' }) }),
    ).rejects.toThrow(
      /exited before it was ready[\s\S]*MIGRATE_ON_START is false and schema \W+limit_order\W+ lacks \d+ migration/,
    );
  }, 120_000);

  /**
   * One instance of `app`, waited for until it is ready. The gateway runs here without the Kafka
   * services, so its readiness is the instance's (`GET /health?scope=instance`, its readiness
   * probe): the suite's `GET /health` is ok only once every service is up.
   */
  const startInstance = async (
    app: string,
    env: Record<string, string>,
    instance: string,
    readyTimeoutMs?: number,
  ) => {
    if (app !== 'gateway') return startApp(app as AppName, { env, instance, readyTimeoutMs });
    const port = String(await freePort());
    return startApp('gateway', {
      env: { ...env, PORT: port },
      instance,
      readyTimeoutMs,
      healthUrl: `http://127.0.0.1:${port}/api/v1/health?scope=instance`,
    });
  };

  it.each([...APP_NAMES])(
    '%s: both instances come up on one set of migrations; an instance that does not migrate then starts',
    async (app) => {
      const pair = await Promise.all(
        ['a', 'b'].map((instance) =>
          startInstance(app, envOf(app), `${app}-migrate-${instance}-${process.pid}`, 120_000),
        ),
      );
      started.push(...pair);
      const counts = await migrationCounts(url, SCHEMA_OF[app]);
      expect(counts.length).toBeGreaterThan(0);
      expect(counts.filter((c) => c.n !== 1)).toEqual([]);
      // MIGRATE_ON_START=false starts only when the schema has every migration this version needs.
      const checking = await startInstance(
        app,
        envOf(app, { MIGRATE_ON_START: 'false' }),
        `${app}-migrate-check-${process.pid}`,
      );
      started.push(checking);
      for (const handle of [...pair, checking]) expect(handle.logs()).not.toMatch(/already exists/);
      await Promise.all([...pair, checking].map((handle) => handle.stop()));
    },
    300_000,
  );
});
