import { connectPgClient } from './pg-connection';

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

/**
 * Creates the database of `url` when it does not exist yet (safe to call from several processes).
 * A database that exists is not looked up from the `postgres` maintenance database: a role of its
 * own (deploy/postgres/roles.sql) may connect to its database only.
 */
export async function ensureDatabase(url: string): Promise<void> {
  const name = databaseNameOf(url);
  try {
    await (await connectPgClient(url)).end();
    return;
  } catch (error) {
    // 3D000 invalid_catalog_name: the database does not exist yet; anything else is the answer.
    if ((error as { code?: string }).code !== '3D000') throw error;
  }
  const client = await connectPgClient(withDatabase(url));
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
  const client = await connectPgClient(withDatabase(url));
  try {
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
}

/**
 * Creates `schema` when it does not exist. One that exists is left alone without asking for
 * CREATE on the database (PostgreSQL checks that privilege before IF NOT EXISTS): with a role per
 * service, the operator creates the schema owned by the role (deploy/postgres/roles.sql).
 */
export async function ensureSchema(url: string, schema: string): Promise<void> {
  assertIdentifier(schema, 'schema');
  const client = await connectPgClient(url);
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema]);
    if (!rowCount) await client.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
  } catch (error) {
    if ((error as { code?: string }).code !== '23505') throw error;
  } finally {
    await client.end();
  }
}
