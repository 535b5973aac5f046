import fs from 'node:fs/promises';

/** The kernel's TCP socket tables (Linux), IPv4 and IPv6: one line per socket of this network namespace. */
const SOCKET_TABLES = ['/proc/net/tcp', '/proc/net/tcp6'];

/** State column of a listening socket in those tables. */
const LISTEN = '0A';

/**
 * Connections waiting in the accept queues of the listening sockets on `port` in `table` (the text
 * of /proc/net/tcp or tcp6). For a listening socket the kernel reports in `rx_queue` the connections
 * it has completed and the process has not accepted yet: clients count them connected, while the
 * server has not read a byte of their requests.
 */
export function acceptQueueIn(table: string, port: number): number {
  const portHex = `:${port.toString(16).toUpperCase().padStart(4, '0')}`;
  let waiting = 0;
  for (const line of table.split('\n').slice(1)) {
    const [, local, , state, queues] = line.trim().split(/\s+/);
    if (state !== LISTEN || !local?.endsWith(portHex) || !queues) continue;
    waiting += parseInt(queues.split(':')[1] ?? '0', 16) || 0;
  }
  return waiting;
}

/**
 * Connections waiting to be accepted on `port`, all its listening sockets together (several with
 * SO_REUSEPORT); undefined where the kernel has no such tables (not Linux).
 */
export async function acceptQueueLength(port: number): Promise<number | undefined> {
  const tables = await Promise.all(
    SOCKET_TABLES.map((file) => fs.readFile(file, 'utf8').catch(() => undefined)),
  );
  const read = tables.filter((table): table is string => table !== undefined);
  if (read.length === 0) return undefined;
  return read.reduce((sum, table) => sum + acceptQueueIn(table, port), 0);
}
