import { Client } from 'pg';

export { DEFAULT_DATABASE_URL } from '@swapgw/runtime';

const IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}$/;

export function assertIdentifier(name: string, what: string): string {
  if (!IDENTIFIER.test(name)) throw new Error(`${what} "${name}" must match ${IDENTIFIER}`);
  return name;
}

export function databaseNameOf(url: string): string {
  const name = decodeURIComponent(new URL(url).pathname.replace(/^\//, ''));
  return assertIdentifier(name, 'database name');
}

/** The same server with another database (default: the `postgres` maintenance database). */
export function withDatabase(url: string, database = 'postgres'): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

/** Creates the database of `url` when it does not exist yet (safe to call from several processes). */
export async function ensureDatabase(url: string): Promise<void> {
  const name = databaseNameOf(url);
  const client = new Client({ connectionString: withDatabase(url), connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!rowCount) {
      try {
        await client.query(`CREATE DATABASE "${name}"`);
      } catch (error) {
        // 42P04 duplicate_database (another process won the race), 23505 unique violation on pg_database.
        const code = (error as { code?: string }).code;
        if (code !== '42P04' && code !== '23505') throw error;
      }
    }
  } finally {
    await client.end();
  }
}

/** Drops the database of `url` (for test databases), disconnecting its sessions first. */
export async function dropDatabase(url: string): Promise<void> {
  const name = databaseNameOf(url);
  const client = new Client({ connectionString: withDatabase(url), connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
}

export async function ensureSchema(url: string, schema: string): Promise<void> {
  assertIdentifier(schema, 'schema');
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    await client.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
  } catch (error) {
    if ((error as { code?: string }).code !== '23505') throw error;
  } finally {
    await client.end();
  }
}
