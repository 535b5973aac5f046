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
  const client = await clientFor(databaseUrl);
  try {
    const { rows } = await client.query<{ pid: number }>(
      `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`,
    );
    return rows.map((r) => r.pid).filter(isLocalPostgres);
  } catch (error) {
    clients.delete(databaseUrl); // a broken connection: the next call opens a new one
    void client.end().catch(() => undefined);
    throw error;
  }
}

/**
 * One connection per database for the process's lifetime (the bench's process exits explicitly):
 * the cold soak reads the pids right after the gateway's first ok health, where a new connection
 * would delay its first swap. It is left out of the pids it reads (pg_backend_pid()).
 */
const clients = new Map<string, Promise<Client>>();

function clientFor(databaseUrl: string): Promise<Client> {
  let client = clients.get(databaseUrl);
  if (!client) {
    client = (async () => {
      const c = new Client(pgClientConfig(databaseUrl));
      c.on('error', () => clients.delete(databaseUrl));
      await c.connect();
      return c;
    })();
    client.catch(() => clients.delete(databaseUrl));
    clients.set(databaseUrl, client);
  }
  return client;
}

function isLocalPostgres(pid: number): boolean {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').startsWith('postgres');
  } catch {
    return false;
  }
}
