import net from 'node:net';

/** A TCP port on 127.0.0.1 that nothing listens on right now (the OS picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      if (address === null || typeof address === 'string') {
        server.close();
        reject(new Error('could not read the port of a listening socket'));
        return;
      }
      server.close(() => resolve(address.port));
    });
  });
}

/**
 * `count` free ports other than `taken` and each other: the OS may hand out a port again that was
 * probed free but not bound yet (a broker's controller port, port + 1, is bound only when it starts).
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
