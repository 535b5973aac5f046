import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import {
  dropDatabase,
  ensureDatabase,
  prepareDatabase,
  ServiceDataSourceOptions,
  withDatabase,
} from '@swapgw/persistence';
import { testEnv } from '@swapgw/testing';
import { plannerDatabaseOptions } from '../../apps/execution-planner/src/database/planner-database';
import { gatewayDatabaseOptions } from '../../apps/gateway/src/database/gateway-data-source';
import { limitOrderDatabaseOptions } from '../../apps/limit-order-service/src/database/limit-order-database';
import { quoteDatabaseOptions } from '../../apps/quote-service/src/database/quote-database';
import { signerDatabaseOptions } from '../../apps/signer-surface/src/database/signer-database';
import { emptyChainBoundTables, KEPT_TABLES, SERVICE_SCHEMAS } from './fresh-database';

describe('emptyChainBoundTables (npm start with a fresh devnet)', () => {
  const url = withDatabase(testEnv().databaseUrl, `swapgw_int_fresh_db_${process.pid}`);
  const apps: ServiceDataSourceOptions[] = [
    gatewayDatabaseOptions(url),
    quoteDatabaseOptions(url),
    plannerDatabaseOptions(url),
    signerDatabaseOptions(url),
    limitOrderDatabaseOptions(url),
  ];
  let db: Client;

  /** Every table of the service schemas with its row count, `schema.table` → rows. */
  const rowCounts = async (): Promise<Record<string, number>> => {
    const { rows } = await db.query<{ name: string }>(
      `SELECT schemaname || '.' || tablename AS "name" FROM pg_tables
        WHERE schemaname = ANY($1::text[]) ORDER BY 1`,
      [SERVICE_SCHEMAS],
    );
    const counts: Record<string, number> = {};
    for (const { name } of rows) {
      const [schema, table] = name.split('.');
      counts[name] = (await db.query(`SELECT count(*)::int AS n FROM "${schema}"."${table}"`)).rows[0].n;
    }
    return counts;
  };

  beforeAll(async () => {
    await dropDatabase(url);
    // The real migrations of the five apps, as each app runs them at boot.
    for (const app of apps) await prepareDatabase(app);
    db = new Client({ connectionString: url });
    await db.connect();
  });

  afterAll(async () => {
    await db?.end();
    await dropDatabase(url);
  });

  it('knows every schema the apps migrate, and the migrations insert no rows but their own', async () => {
    expect(apps.map((a) => a.schema).sort()).toEqual([...SERVICE_SCHEMAS].sort());
    // Emptying a table is the same as creating it anew only while no migration seeds rows.
    const seeded = Object.entries(await rowCounts()).filter(
      ([name, rows]) => rows > 0 && !name.endsWith('.migrations'),
    );
    expect(seeded).toEqual([]);
  });

  it('keeps API keys and webhooks, empties every other table and restarts the outbox ids', async () => {
    const keyId = randomUUID();
    await db.query(
      `INSERT INTO gateway.api_keys (id, prefix, key_hash, owner) VALUES ($1, 'sgw_abcdef12', $2, 'alice')`,
      [keyId, 'a'.repeat(64)],
    );
    const webhookId = randomUUID();
    await db.query(
      `INSERT INTO gateway.webhooks (id, owner, url, event_types, secret, created_at_ms)
       VALUES ($1, 'alice', 'http://127.0.0.1:9999/hook', '{swap.completed}', 'whsec_x', 1)`,
      [webhookId],
    );
    // A delivery references the kept webhook: it goes, the webhook stays.
    await db.query(
      `INSERT INTO gateway.webhook_deliveries (id, webhook_id, event_id, event_type, occurred_at_ms, data, status, created_at_ms)
       VALUES ($1, $2, 'e1', 'swap.completed', 1, '{}', 'pending', 1)`,
      [randomUUID(), webhookId],
    );
    await db.query(
      `INSERT INTO gateway.rate_limit_windows (api_key_id, window_start, request_count) VALUES ($1, now(), 3)`,
      [keyId],
    );
    // The relayer's nonce ledger of a chain that is gone.
    await db.query(
      `INSERT INTO signer.relayer_accounts (chain, address, next_nonce) VALUES ('devnet-a', '0xabc', 42)`,
    );
    for (const schema of ['planner', 'signer']) {
      await db.query(
        `INSERT INTO "${schema}".outbox (event_id, topic, message_key, envelope, headers) VALUES ($1, 't', 'k', '{}', '{}'), ($2, 't', 'k', '{}', '{}')`,
        [randomUUID(), randomUUID()],
      );
      await db.query(`INSERT INTO "${schema}".processed_events (consumer_group, event_id) VALUES ('g', $1)`, [
        randomUUID(),
      ]);
    }
    const before = await rowCounts();
    const keptBefore = (await db.query(`SELECT * FROM gateway.api_keys`)).rows;

    const result = await emptyChainBoundTables(url);

    expect(result.kept).toEqual([
      { table: 'gateway.api_keys', rows: 1 },
      { table: 'gateway.webhooks', rows: 1 },
    ]);
    expect(result.emptied).toEqual(
      expect.arrayContaining([
        'gateway.webhook_deliveries',
        'gateway.rate_limit_windows',
        'signer.relayer_accounts',
        'planner.outbox',
      ]),
    );
    expect((await db.query(`SELECT * FROM gateway.api_keys`)).rows).toEqual(keptBefore);
    expect((await db.query(`SELECT id FROM gateway.webhooks`)).rows).toEqual([{ id: webhookId }]);
    const after = await rowCounts();
    for (const [name, rows] of Object.entries(after)) {
      if (name.endsWith('.migrations')) expect({ name, rows }).toEqual({ name, rows: before[name] });
      else if ((KEPT_TABLES as readonly string[]).includes(name)) expect(rows).toBe(1);
      else expect({ name, rows }).toEqual({ name, rows: 0 });
    }
    const { rows: ids } = await db.query(
      `INSERT INTO planner.outbox (event_id, topic, message_key, envelope, headers) VALUES ($1, 't', 'k', '{}', '{}') RETURNING id`,
      [randomUUID()],
    );
    expect(ids).toEqual([{ id: '1' }]);
    // The apps boot on it as on any migrated database: nothing left to migrate.
    for (const app of apps) await prepareDatabase(app);
  });

  it('empties nothing while an app still uses a table, and says so', async () => {
    await db.query(
      `INSERT INTO signer.relayer_accounts (chain, address, next_nonce) VALUES ('devnet-b', '0xdef', 7)`,
    );
    const app = new Client({ connectionString: url });
    await app.connect();
    try {
      await app.query('BEGIN');
      await app.query(`SELECT * FROM signer.relayer_accounts FOR UPDATE`);
      await expect(emptyChainBoundTables(url, { lockTimeoutMs: 200 })).rejects.toThrow(/in use/);
      await app.query('ROLLBACK');
    } finally {
      await app.end();
    }
    expect((await db.query(`SELECT next_nonce FROM signer.relayer_accounts`)).rows).toEqual([
      { next_nonce: '7' },
    ]);
  });

  it('leaves a database the apps never migrated as it is', async () => {
    const empty = withDatabase(url, `swapgw_int_fresh_db_${process.pid}_new`);
    await ensureDatabase(empty);
    try {
      expect(await emptyChainBoundTables(empty)).toEqual({ emptied: [], kept: [] });
    } finally {
      await dropDatabase(empty);
    }
  });
});
