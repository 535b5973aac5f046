import fs from 'node:fs';
import { Client } from 'pg';
import { pgClientConfig } from '@swapgw/persistence';

/**
 * Pids of the PostgreSQL backends connected to the bench's own database, when the server runs on
 * this machine (its pids are ours to read). A backend serves one connection, so these are the
 * apps' pools; the server's shared processes (WAL writer, checkpointer) also serve other databases
 * and are not attributed. A pid that is not a local postgres process is left out: the server may
 * run elsewhere, where its pids mean nothing here.
 */
export async function postgresBackendPids(databaseUrl: string): Promise<number[]> {
  const client = new Client(pgClientConfig(databaseUrl));
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>(
      `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`,
    );
    return rows.map((r) => r.pid).filter(isLocalPostgres);
  } finally {
    await client.end();
  }
}

function isLocalPostgres(pid: number): boolean {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').startsWith('postgres');
  } catch {
    return false;
  }
}
