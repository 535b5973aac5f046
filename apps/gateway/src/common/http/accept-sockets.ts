import { Logger } from '@nestjs/common';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';

/** The events whose listeners (Fastify's handler, its client-error answer) every socket's server shares. */
const SHARED_EVENTS = ['request', 'clientError', 'checkContinue', 'checkExpectation', 'upgrade'] as const;

/** What Fastify (or our server factory) set on the first server, copied to the others. */
const SHARED_SETTINGS = [
  'keepAliveTimeout',
  'headersTimeout',
  'requestTimeout',
  'timeout',
  'maxRequestsPerSocket',
  'maxHeadersCount',
] as const;

const logger = new Logger('AcceptSockets');

/** While closing, how often connections that went idle are ended. */
const IDLE_REAP_INTERVAL_MS = 100;

export interface ListenAddress {
  port: number;
  host: string;
  backlog: number;
}

/**
 * The gateway's HTTP port served by several listening sockets in one process (SO_REUSEPORT).
 *
 * libuv accepts one connection per listening socket per turn of the event loop (Node 20 and 24
 * alike). In a burst a turn of the gateway's loop takes 10 to 50 ms, so one socket took 20 to 100
 * new connections a second: of 1,000 wallets connecting at once, hundreds waited up to 20 s in the
 * kernel's accept queue, connected as far as they could tell, before the gateway read their request
 * (and its own request timings never saw that wait); at 3,000 many waited past their client's
 * timeout. With `count` sockets the kernel spreads new connections over `count` queues and a turn
 * accepts up to `count` of them. Every socket's server shares the first one's handlers and timeouts,
 * so a request is served alike whichever socket took its connection.
 */
export class AcceptSockets {
  private readonly others: http.Server[] = [];

  constructor(private readonly count: number) {}

  /**
   * Has the others stop accepting when Fastify closes (its own server stops in the same step), and
   * waits, as Fastify does for its own, for their connections' requests to end. Before `ready`.
   *
   * While closing, every socket's idle connections are ended every IDLE_REAP_INTERVAL_MS: a
   * keep-alive connection whose request was in flight when closing began goes idle once answered,
   * and Fastify's one `closeIdleConnections` at the start has passed it by, so the close waited for
   * the keep-alive timeout (72 s, measured: 73.4 s with one socket as with eight).
   */
  closeWith(fastify: FastifyInstance): void {
    let closed: Promise<void> = Promise.resolve();
    let reaping: NodeJS.Timeout | undefined;
    fastify.addHook('preClose', (done) => {
      const servers = [fastify.server, ...this.others];
      reaping = setInterval(
        () => servers.forEach((server) => server.closeIdleConnections()),
        IDLE_REAP_INTERVAL_MS,
      );
      reaping.unref();
      closed = Promise.all(
        this.others.map(
          (server) =>
            new Promise<void>((resolve) => {
              server.close(() => resolve());
              server.closeIdleConnections();
            }),
        ),
      ).then(() => undefined);
      done();
    });
    fastify.addHook('onClose', async () => {
      try {
        await closed;
      } finally {
        clearInterval(reaping);
      }
    });
  }

  /** Listens with Fastify's own server, then opens the other sockets on its address and port. */
  async listen(
    listenFirst: (options: ListenAddress & { reusePort?: boolean }) => Promise<unknown>,
    first: http.Server,
    address: ListenAddress,
  ): Promise<void> {
    if (this.count <= 1) {
      await listenFirst(address);
      return;
    }
    await listenFirst({ ...address, reusePort: true });
    const { port } = first.address() as AddressInfo;
    for (let n = 1; n < this.count; n++) {
      const server = sharingWith(first);
      const refused = await new Promise<Error | undefined>((resolve) => {
        server.once('error', resolve);
        server.listen({ ...address, port, reusePort: true }, () => {
          server.off('error', resolve);
          resolve(undefined);
        });
      });
      if (refused) {
        // A runtime or kernel without SO_REUSEPORT (Node before 22.12): serve with the sockets open.
        logger.warn({
          msg: 'could not open every accept socket on the API port; serving with fewer',
          listening: this.others.length + 1,
          wanted: this.count,
          error: refused.message,
        });
        return;
      }
      this.others.push(server);
    }
  }

  /** How many sockets accept connections now (the first included while it listens). */
  listening(first: http.Server): number {
    return [first, ...this.others].filter((server) => server.listening).length;
  }
}

function sharingWith(first: http.Server): http.Server {
  const server = http.createServer();
  for (const event of SHARED_EVENTS)
    for (const listener of first.listeners(event)) server.on(event, listener as (...args: unknown[]) => void);
  const settings = server as unknown as Record<string, unknown>;
  const from = first as unknown as Record<string, unknown>;
  for (const name of SHARED_SETTINGS) settings[name] = from[name];
  return server;
}
