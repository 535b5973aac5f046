// deploy/postgres/roles.sql as an operator runs it (psql), then each app migrated and used as its
// own role: its own schema only, every other schema refused (SQLSTATE 42501).
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import {
  dropDatabase,
  ensureDatabase,
  prepareDatabase,
  ServiceDataSourceOptions,
  serviceDataSourceOptions,
  withDatabase,
} from '@swapgw/persistence';
import { testEnv } from '@swapgw/testing';
import { gatewayDatabaseOptions } from '../../apps/gateway/src/database/gateway-data-source';
import { quoteDatabaseOptions } from '../../apps/quote-service/src/database/quote-database';
import { plannerDatabaseOptions } from '../../apps/execution-planner/src/database/planner-database';
import { signerDatabaseOptions } from '../../apps/signer-surface/src/database/signer-database';
import { limitOrderDatabaseOptions } from '../../apps/limit-order-service/src/database/limit-order-database';

const ROLES_SQL = path.resolve(__dirname, '../../deploy/postgres/roles.sql');
/** Roles are cluster-wide: a prefix of this run's own, dropped afterwards. */
const PREFIX = `swapgw_rt${process.pid}`;
const admin = withDatabase(testEnv().databaseUrl, `swapgw_roles_test_${process.pid}`);

const APPS: { app: string; role: string; schema: string; options(url: string): ServiceDataSourceOptions }[] =
  [
    {
      app: 'gateway',
      role: `${PREFIX}_gateway`,
      schema: 'gateway',
      options: (url) => gatewayDatabaseOptions(url),
    },
    {
      app: 'quote-service',
      role: `${PREFIX}_quote_service`,
      schema: 'quote',
      options: (url) => quoteDatabaseOptions(url),
    },
    {
      app: 'execution-planner',
      role: `${PREFIX}_execution_planner`,
      schema: 'planner',
      options: (url) => plannerDatabaseOptions(url),
    },
    {
      app: 'signer-surface',
      role: `${PREFIX}_signer_surface`,
      schema: 'signer',
      options: (url) => signerDatabaseOptions(url),
    },
    {
      app: 'limit-order-service',
      role: `${PREFIX}_limit_order_service`,
      schema: 'limit_order',
      options: (url) => limitOrderDatabaseOptions(url),
    },
  ];

/** The app's DATABASE_URL: its own role (with its password; the test server trusts anyway). */
function urlAs(role: string): string {
  const url = new URL(admin);
  url.username = role;
  url.password = `pw-${role}`;
  return url.toString();
}

function applyRolesSql(): string {
  const u = new URL(admin);
  return execFileSync(
    'psql',
    [
      '-X',
      '-h',
      u.hostname,
      '-p',
      u.port || '5432',
      '-U',
      decodeURIComponent(u.username),
      '-d',
      u.pathname.slice(1),
      '-v',
      `role_prefix=${PREFIX}`,
      ...APPS.flatMap(({ role, schema }) => ['-v', `${schema}_password=pw-${role}`]),
      '-f',
      ROLES_SQL,
    ],
    { stdio: 'pipe', env: { ...process.env, PGPASSWORD: decodeURIComponent(u.password) } },
  ).toString();
}

async function queryAs<T = Record<string, unknown>>(role: string, sql: string): Promise<T[]> {
  const client = new Client({ connectionString: urlAs(role) });
  await client.connect();
  try {
    return (await client.query(sql)).rows as T[];
  } finally {
    await client.end();
  }
}

describe('deploy/postgres/roles.sql: one role per service', () => {
  const tablesOf = new Map<string, string[]>();

  beforeAll(async () => {
    await dropDatabase(admin);
    await ensureDatabase(admin);
    // A database that ran before with one role for all five: the gateway migrated by the superuser.
    await prepareDatabase(gatewayDatabaseOptions(admin));
    applyRolesSql();
    // Applying it again changes nothing and fails on nothing.
    applyRolesSql();
  });

  afterAll(async () => {
    await dropDatabase(admin);
    const client = new Client({ connectionString: withDatabase(admin) });
    await client.connect();
    try {
      for (const { role } of APPS) await client.query(`DROP ROLE IF EXISTS "${role}"`);
    } finally {
      await client.end();
    }
  });

  it('each app migrates its own schema as its own role (no CREATE on the database, schema made by the SQL)', async () => {
    for (const { role, options } of APPS) await prepareDatabase(options(urlAs(role)));
    const client = new Client({ connectionString: admin });
    await client.connect();
    try {
      for (const { role, schema } of APPS) {
        const { rows } = await client.query<{ table: string; owner: string }>(
          `SELECT tablename AS "table", tableowner AS owner FROM pg_tables WHERE schemaname = $1 ORDER BY 1`,
          [schema],
        );
        expect(rows.map((r) => r.table)).toContain('migrations');
        // Every table of the schema is the service role's, the gateway's moved from the superuser too.
        expect(rows.filter((r) => r.owner !== role)).toEqual([]);
        tablesOf.set(
          schema,
          rows.map((r) => r.table).filter((t) => t !== 'migrations'),
        );
      }
      const { rows: privileges } = await client.query(
        `SELECT rolname, has_database_privilege(rolname, current_database(), 'CREATE') AS create_db, rolsuper
           FROM pg_roles WHERE rolname LIKE $1 ORDER BY 1`,
        [`${PREFIX}_%`],
      );
      expect(privileges).toHaveLength(APPS.length);
      expect(
        privileges.every((p: { create_db: boolean; rolsuper: boolean }) => !p.create_db && !p.rolsuper),
      ).toBe(true);
    } finally {
      await client.end();
    }
  });

  it('each app reads and writes its own tables through its DataSource, as its role', async () => {
    for (const { role, schema, options } of APPS) {
      const dataSource = await new DataSource(
        serviceDataSourceOptions({ ...options(urlAs(role)), poolSize: 1 }),
      ).initialize();
      try {
        const [{ current_user }] = (await dataSource.query('SELECT current_user')) as {
          current_user: string;
        }[];
        expect(current_user).toBe(role);
        if (schema === 'quote') {
          await dataSource.query(
            `INSERT INTO quote.chains (id, name, family, network, caip2, native_symbol, signing_surface, position, updated_at_ms)
             VALUES ('roles-test', 'Roles test', 'evm', 'devnet', 'eip155:424242', 'ETH', true, 0, 0)`,
          );
          expect(await dataSource.query(`SELECT name FROM quote.chains WHERE id = 'roles-test'`)).toEqual([
            { name: 'Roles test' },
          ]);
        } else {
          await dataSource.query(
            `INSERT INTO "${schema}".processed_events (consumer_group, event_id) VALUES ('roles-test', gen_random_uuid())`,
          );
          const rows = (await dataSource.query(
            `SELECT count(*)::int AS n FROM "${schema}".processed_events WHERE consumer_group = 'roles-test'`,
          )) as { n: number }[];
          expect(rows).toEqual([{ n: 1 }]);
        }
        // Every table of its schema reads.
        for (const table of tablesOf.get(schema)!)
          await dataSource.query(`SELECT 1 FROM "${schema}"."${table}" LIMIT 1`);
      } finally {
        await dataSource.destroy();
      }
    }
  });

  it("no app can read another's schema: permission denied (42501), gateway and quote-service both ways", async () => {
    const refused: string[] = [];
    for (const reader of APPS) {
      for (const owner of APPS.filter((a) => a !== reader)) {
        const table = tablesOf.get(owner.schema)![0];
        const error = await queryAs(reader.role, `SELECT * FROM "${owner.schema}"."${table}" LIMIT 1`).then(
          () => null,
          (e: { code?: string; message: string }) => e,
        );
        expect({ reader: reader.app, table: `${owner.schema}.${table}`, code: error?.code }).toEqual({
          reader: reader.app,
          table: `${owner.schema}.${table}`,
          code: '42501',
        });
        refused.push(`${reader.app}→${owner.schema}`);
      }
    }
    expect(refused).toEqual(expect.arrayContaining(['gateway→quote', 'quote-service→gateway']));
    expect(refused).toHaveLength(APPS.length * (APPS.length - 1));
    // Nor write, nor create in another's schema.
    await expect(queryAs(APPS[0].role, `INSERT INTO quote.chains (id) VALUES ('x')`)).rejects.toMatchObject({
      code: '42501',
    });
    await expect(queryAs(APPS[1].role, 'CREATE TABLE gateway.intruder (x int)')).rejects.toMatchObject({
      code: '42501',
    });
    await expect(queryAs(APPS[1].role, 'CREATE TABLE public.intruder (x int)')).rejects.toMatchObject({
      code: '42501',
    });
  });
});
