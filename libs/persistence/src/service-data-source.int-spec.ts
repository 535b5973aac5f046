import { createServer, Server, Socket } from 'node:net';
import { DataSource } from 'typeorm';
import { isDatabaseUnavailable } from './database-errors';
import { ensureDatabase } from './database-url';
import { serviceDataSourceOptions } from './service-data-source';

const databaseUrl = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/swapgw_dev_persistence';

const optionsFor = (url: string) =>
  serviceDataSourceOptions({ url, schema: 'public', entities: [], migrations: [], poolSize: 1 });

/** A TCP server that accepts connections and never says a word: PostgreSQL gone silent. */
async function silentServer(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

describe('the pool of a service DataSource (PostgreSQL)', () => {
  it('lets a query wait for a busy pool longer than a statement may run (15 s), instead of failing', async () => {
    await ensureDatabase(databaseUrl);
    const dataSource = await new DataSource(optionsFor(databaseUrl)).initialize();
    const holder = dataSource.createQueryRunner();
    try {
      // The pool's only connection is taken, as every connection is during a flood of requests.
      await holder.connect();
      await holder.startTransaction();
      const waiting = dataSource.query('SELECT 1 AS "one"');
      const outcome = { settled: false };
      void waiting.then(
        () => (outcome.settled = true),
        () => (outcome.settled = true),
      );
      await new Promise((resolve) => setTimeout(resolve, 16_000));
      expect(outcome.settled).toBe(false); // still waiting: load is not an outage

      await holder.commitTransaction();
      await holder.release();
      await expect(waiting).resolves.toEqual([{ one: 1 }]);
    } finally {
      if (!holder.isReleased) await holder.release();
      await dataSource.destroy();
    }
  });

  it('reports a database that never answers as unavailable once connecting takes 15 s, not after the pool wait', async () => {
    const silent = await silentServer();
    const startedAt = Date.now();
    try {
      const error = await new DataSource(optionsFor(`postgres://postgres@127.0.0.1:${silent.port}/silent`))
        .initialize()
        .then(
          () => null,
          (e: unknown) => e,
        );
      expect(error).not.toBeNull();
      expect(isDatabaseUnavailable(error)).toBe(true);
      // The connect's own bound (15 s), well before the pool's 60 s wait for a free client.
      expect(Date.now() - startedAt).toBeLessThan(40_000);
    } finally {
      await silent.close();
    }
  });
});
