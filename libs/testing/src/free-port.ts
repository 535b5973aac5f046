import net from 'node:net';

/**
 * Ports are probed below Linux's default ephemeral range (32768–60999): the kernel gives those to
 * every outgoing socket (a suite's connections to Kafka, PostgreSQL, a chain), so a port probed free
 * there can be taken by a connect() of a suite running beside it before the process meant for it
 * binds it. Nothing takes a port of this range unless it asks for that port; the bench's stack and
 * npm test's broker prefer ports just above it (28000–29999), so no probe here races their start.
 */
const FIRST_PORT = 20_000;
const LAST_PORT = 27_999;
const ATTEMPTS = 200;

/** A TCP port on 127.0.0.1 that nothing listens on right now, outside the ephemeral range. */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const port = FIRST_PORT + Math.floor(Math.random() * (LAST_PORT - FIRST_PORT + 1));
    if (await listensFree(port)) return port;
  }
  throw new Error(`no free port in ${FIRST_PORT}–${LAST_PORT} after ${ATTEMPTS} tries`);
}

function listensFree(port: number): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE' || error.code === 'EACCES') resolve(false);
      else reject(error);
    });
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * `count` free ports other than `taken` and each other: a port probed free but not bound yet may be
 * probed free again (a broker's controller port, port + 1, is bound only when it starts).
 */
export async function freePortsBesides(count: number, taken: readonly number[]): Promise<number[]> {
  const used = new Set(taken);
  const ports: number[] = [];
  while (ports.length < count) {
    const port = await freePort();
    if (used.has(port)) continue;
    used.add(port);
    ports.push(port);
  }
  return ports;
}
