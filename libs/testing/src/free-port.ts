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
