import { Client } from 'pg';
import { dropDatabase, withDatabase } from '@swapgw/persistence';
import { testEnv } from '@swapgw/testing';
import { gatewayDatabaseOptions } from './gateway-data-source';
import { prepareDatabaseExclusively } from './migration-lock';

describe('prepareDatabaseExclusively', () => {
  const url = withDatabase(testEnv().databaseUrl, `swapgw_int_gw_migrate_${process.pid}`);

  afterAll(() => dropDatabase(url));

  it('lets instances that start together migrate a fresh database once, without failing', async () => {
    await Promise.all([1, 2, 3].map(() => prepareDatabaseExclusively(gatewayDatabaseOptions(url))));

    const client = new Client({ connectionString: url });
    await client.connect();
    try {
      const tables = await client.query(
        `SELECT table_name FROM information_schema.tables WHERE table_schema = 'gateway' ORDER BY table_name`,
      );
      expect(tables.rows.map((r: { table_name: string }) => r.table_name)).toEqual(
        expect.arrayContaining(['api_keys', 'idempotency_records', 'migrations', 'rate_limit_windows']),
      );
      const ran = await client.query(
        `SELECT name, count(*)::int AS n FROM "gateway"."migrations" GROUP BY name`,
      );
      expect(ran.rows.length).toBe(gatewayDatabaseOptions(url).migrations.length);
      expect(ran.rows.every((r: { n: number }) => r.n === 1)).toBe(true);
    } finally {
      await client.end();
    }
  });
});
