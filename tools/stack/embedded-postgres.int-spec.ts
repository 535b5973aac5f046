import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { assertDatabaseMigrated, ServiceDataSourceOptions, withDatabase } from '@swapgw/persistence';
import { freePort } from '@swapgw/testing';
import { plannerDatabaseOptions } from '../../apps/execution-planner/src/database/planner-database';
import { gatewayDatabaseOptions } from '../../apps/gateway/src/database/gateway-data-source';
import { limitOrderDatabaseOptions } from '../../apps/limit-order-service/src/database/limit-order-database';
import { quoteDatabaseOptions } from '../../apps/quote-service/src/database/quote-database';
import { signerDatabaseOptions } from '../../apps/signer-surface/src/database/signer-database';
import { EmbeddedPostgres, startEmbeddedPostgres } from './embedded-postgres';

// The server `npm start` and `npm test` run when they find none (tools/stack/lib.mjs
// providePostgres), booted here on a free port whatever this machine has on 5432.
const root = path.resolve(__dirname, '..', '..');

/** Each app and the database options its migration CLI (apps/<app>/src/cli/migrate.ts) uses. */
const APPS: Array<[string, (url: string) => ServiceDataSourceOptions]> = [
  ['gateway', gatewayDatabaseOptions],
  ['quote-service', quoteDatabaseOptions],
  ['execution-planner', plannerDatabaseOptions],
  ['signer-surface', signerDatabaseOptions],
  ['limit-order-service', limitOrderDatabaseOptions],
];

/** `migrate.js up` of `app`, built into dist/ (as `npm run migrate` runs it): its exit code and output. */
function migrate(app: string, databaseUrl: string): Promise<{ code: number | null; output: string }> {
  const cli = path.join(root, 'dist', 'apps', app, 'src', 'cli', 'migrate.js');
  if (!fs.existsSync(cli)) throw new Error(`${cli} is missing: build first (node tools/build/build.mjs)`);
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cli, 'up'], {
      env: { ...process.env, DATABASE_URL: databaseUrl },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    // 'close', not 'exit': the process may exit before its last output is read off the pipes.
    child.once('close', (code) => resolve({ code, output }));
  });
}

/** A plain connection attempt to 127.0.0.1:`port` as the postgres user: undefined, or its error code. */
async function connectionError(port: number): Promise<string | undefined> {
  const client = new Client({ host: '127.0.0.1', port, user: 'postgres', database: 'postgres' });
  try {
    await client.connect();
    return undefined;
  } catch (error) {
    return (error as { code?: string }).code ?? String(error);
  } finally {
    await client.end().catch(() => undefined);
  }
}

describe('embedded PostgreSQL (npm start and npm test without a server)', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'swapgw-embedded-pg-'));
  const dataDir = path.join(dir, 'data');
  const logFile = path.join(dir, 'postgres.log');
  let port: number;
  let server: EmbeddedPostgres | undefined;
  const start = async () => {
    server = await startEmbeddedPostgres({ dataDir, port, logFile, durable: false });
    return server;
  };

  beforeAll(async () => {
    port = await freePort();
    await start();
  });

  afterAll(async () => {
    await server?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('is PostgreSQL 15 on 127.0.0.1 only, taking the postgres user without a password', async () => {
    const client = new Client({ connectionString: server!.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ version: string; user: string; listen: string }>(
        `SELECT version() AS version, current_user AS user, current_setting('listen_addresses') AS listen`,
      );
      expect(rows[0].version).toMatch(/^PostgreSQL 15\.\d+ /);
      expect(rows[0].version).toContain(server!.version);
      expect(rows[0]).toMatchObject({ user: 'postgres', listen: '127.0.0.1' });
    } finally {
      await client.end();
    }
    expect(server!.url).toBe(`postgres://postgres@127.0.0.1:${port}/postgres`);
  });

  it("runs the five apps' migrations: each schema records every migration of its app", async () => {
    const url = withDatabase(server!.url, 'swapgw_embedded');
    const runs = await Promise.all(APPS.map(([app]) => migrate(app, url)));
    for (const [i, [app]] of APPS.entries())
      expect({ app, ...runs[i] }).toEqual({ app, code: 0, output: expect.stringContaining('up done') });

    const client = new Client({ connectionString: url });
    await client.connect();
    try {
      for (const [, optionsOf] of APPS) {
        const options = optionsOf(url);
        // What an app started with MIGRATE_ON_START=false checks: no migration of its code is missing.
        await expect(assertDatabaseMigrated(options)).resolves.toBeUndefined();
        const { rows } = await client.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM "${options.schema}"."migrations"`,
        );
        expect({ schema: options.schema, recorded: rows[0].n }).toEqual({
          schema: options.schema,
          recorded: (options.migrations as unknown[]).length,
        });
        expect(rows[0].n).toBeGreaterThan(0);
      }
    } finally {
      await client.end();
    }
  });

  it('stops (its port refuses connections) and starts again on the same data, which it kept', async () => {
    await server!.stop();
    expect(await connectionError(port)).toBe('ECONNREFUSED');

    await start();
    const url = withDatabase(server!.url, 'swapgw_embedded');
    for (const [, optionsOf] of APPS)
      await expect(assertDatabaseMigrated(optionsOf(url))).resolves.toBeUndefined();
    await server!.stop();
    expect(await connectionError(port)).toBe('ECONNREFUSED');
  });
});
