// What `npm start` does to the database when it starts a fresh devnet (tools/stack/start.mjs loads
// the compiled copy in dist/tools/stack/ after the build). The chains are new on every start, so
// every row that describes them (swaps, signing requests, the relayers' nonce ledger, sponsored
// transactions, limit orders, quotes, the outboxes and processed events) would describe chains that
// no longer exist: those tables start empty. What a developer set up by hand and expects to find
// again is kept: the gateway's API keys and webhook subscriptions.
import { connectPgClient } from '@swapgw/persistence';

/** The schemas of the five apps (serviceDataSourceOptions): nothing outside them is touched. */
export const SERVICE_SCHEMAS = ['gateway', 'quote', 'planner', 'signer', 'limit_order'] as const;

/**
 * The integrator's configuration, not chain state: kept. A table kept must not reference a table
 * emptied (TRUNCATE refuses, and nothing is emptied); tables emptied may reference it.
 */
export const KEPT_TABLES = [
  // `npm run keys -- create` need not be run again after each restart.
  'gateway.api_keys',
  // The subscriptions (URL, event types, secret); their deliveries and swap owners are about swaps.
  'gateway.webhooks',
] as const;

export interface FreshDatabaseOptions {
  schemas?: readonly string[];
  /** `schema.table` names. */
  keep?: readonly string[];
  /** How long to wait for a table another session uses (an app still running) before giving up. */
  lockTimeoutMs?: number;
}

export interface FreshDatabaseResult {
  /** `schema.table` of every table emptied. */
  emptied: string[];
  /** Rows left in each kept table that exists. */
  kept: Array<{ table: string; rows: number }>;
}

/**
 * Empties every table of the service schemas except each schema's `migrations` (the schema stays
 * migrated: the apps find nothing to do at boot) and the kept tables, and restarts their identity
 * sequences (outbox ids). One transaction: all of it or, on any error, nothing. The result is
 * what a new database migrated by the apps holds, plus the kept rows, because no migration inserts
 * rows (the integration test checks it). A database without the schemas (never started) is left
 * as it is.
 */
export async function emptyChainBoundTables(
  url: string,
  { schemas = SERVICE_SCHEMAS, keep = KEPT_TABLES, lockTimeoutMs = 10_000 }: FreshDatabaseOptions = {},
): Promise<FreshDatabaseResult> {
  const client = await connectPgClient(url, { application_name: 'swapgw-stack' });
  try {
    await client.query('BEGIN');
    // TRUNCATE takes an exclusive lock: a session still using a table (an app of another stack on
    // this database) must not make the start hang.
    await client.query(`SET LOCAL lock_timeout = ${Math.max(1, Math.floor(lockTimeoutMs))}`);
    const { rows } = await client.query<{ schema: string; table: string }>(
      `SELECT schemaname AS "schema", tablename AS "table" FROM pg_tables
        WHERE schemaname = ANY($1::text[]) ORDER BY schemaname, tablename`,
      [schemas],
    );
    const kept = new Set(keep);
    const emptied = rows.filter((r) => r.table !== 'migrations' && !kept.has(`${r.schema}.${r.table}`));
    if (emptied.length > 0) {
      await client.query(
        `TRUNCATE TABLE ${emptied.map((r) => `${quoted(r.schema)}.${quoted(r.table)}`).join(', ')} RESTART IDENTITY`,
      );
    }
    const counts: FreshDatabaseResult['kept'] = [];
    for (const r of rows.filter((r) => kept.has(`${r.schema}.${r.table}`))) {
      const { rows: count } = await client.query<{ n: number }>(
        `SELECT count(*)::int AS "n" FROM ${quoted(r.schema)}.${quoted(r.table)}`,
      );
      counts.push({ table: `${r.schema}.${r.table}`, rows: count[0].n });
    }
    await client.query('COMMIT');
    return { emptied: emptied.map((r) => `${r.schema}.${r.table}`), kept: counts };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    if ((error as { code?: string }).code === '55P03') {
      throw new Error(
        `the database's tables are in use by another session (an app still running on it?), nothing was emptied: ${(error as Error).message}`,
        { cause: error },
      );
    }
    throw error;
  } finally {
    await client.end();
  }
}

function quoted(identifier: string): string {
  return `"${identifier.replace(/"/g, '""')}"`;
}
