import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import Fastify, { FastifyInstance } from 'fastify';
import { AcceptSockets } from './accept-sockets';

interface Served {
  fastify: FastifyInstance;
  sockets: AcceptSockets;
  port: number;
  /** Connections each listening socket's server took, in the order the servers were opened. */
  accepted(): number[];
}

/**
 * A Fastify app with two routes (`/who`, and `/slow` answering after 300 ms), served through `count` accept sockets on a free port; `made` sees
 * each other socket's server as it is made (n from 1), before it listens.
 */
async function serve(count: number, made?: (server: http.Server, n: number) => void): Promise<Served> {
  const fastify = Fastify();
  fastify.get('/who', async () => ({ ok: true }));
  fastify.get('/slow', async () => {
    await new Promise((resolve) => setTimeout(resolve, 300));
    return { ok: true };
  });
  const sockets = new AcceptSockets(count);
  sockets.closeWith(fastify);
  const servers: http.Server[] = [];
  const counts: number[] = [];
  const watch = (server: http.Server) => {
    const n = servers.push(server) - 1;
    counts[n] = 0;
    server.on('connection', () => counts[n]++);
  };
  watch(fastify.server);
  // Count the other sockets' connections too: every server made while listening is one of them.
  const originalCreate = http.createServer;
  const createServer = jest.spyOn(http, 'createServer').mockImplementation(((...args: []) => {
    const server = originalCreate(...args);
    watch(server);
    made?.(server, servers.length - 1);
    return server;
  }) as typeof http.createServer);
  try {
    await sockets.listen((options) => fastify.listen(options), fastify.server, {
      port: 0,
      host: '127.0.0.1',
      backlog: 1024,
    });
  } finally {
    createServer.mockRestore();
  }
  const port = (fastify.server.address() as net.AddressInfo).port;
  return { fastify, sockets, port, accepted: () => [...counts] };
}

/**
 * Opens `connections` TCP connections to `port` from another process and blocks this one's event
 * loop until the kernel has completed them all (they wait in the accept queues, as a burst's do).
 */
function burstWhileBlocked(port: number, connections: number): () => void {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'accept-sockets-'));
  const done = path.join(dir, 'connected');
  const child = spawn(
    process.execPath,
    [
      '-e',
      `const net = require('node:net'); let open = 0;
       for (let i = 0; i < ${connections}; i++)
         net.connect(${port}, '127.0.0.1').on('connect', () => {
           if (++open === ${connections}) require('node:fs').writeFileSync(${JSON.stringify(done)}, '');
         });
       setInterval(() => {}, 1000);`,
    ],
    { stdio: 'ignore' },
  );
  const deadline = Date.now() + 20_000;
  while (!fs.existsSync(done)) {
    if (Date.now() > deadline) throw new Error('the burst did not connect within 20 s');
  }
  return () => {
    child.kill();
    fs.rmSync(dir, { recursive: true, force: true });
  };
}

/** Runs `turns` turns of the event loop, each busy for `busyMs` as a loaded gateway's are. */
async function busyTurns(turns: number, busyMs: number): Promise<void> {
  for (let turn = 0; turn < turns; turn++) {
    await new Promise<void>((resolve) =>
      setImmediate(() => {
        const until = performance.now() + busyMs;
        while (performance.now() < until);
        resolve();
      }),
    );
  }
}

const sum = (counts: number[]) => counts.reduce((a, b) => a + b, 0);

describe('AcceptSockets', () => {
  it('takes several of a burst’s waiting connections per turn of a busy event loop, where one socket takes one', async () => {
    const acceptedIn10Turns: Record<number, number> = {};
    for (const count of [1, 8]) {
      const served = await serve(count);
      const endBurst = burstWhileBlocked(served.port, 200);
      try {
        await busyTurns(10, 20);
        acceptedIn10Turns[count] = sum(served.accepted());
      } finally {
        endBurst();
        await served.fastify.close();
      }
    }
    // One socket: one connection a turn (plus the turn the burst arrived in).
    expect(acceptedIn10Turns[1]).toBeLessThanOrEqual(12);
    expect(acceptedIn10Turns[8]).toBeGreaterThanOrEqual(3 * acceptedIn10Turns[1]);
  });

  it('serves the same routes on every socket, and the kernel spreads new connections over them', async () => {
    const served = await serve(4);
    try {
      expect(served.sockets.listening(served.fastify.server)).toBe(4);
      const agent = new http.Agent({ keepAlive: false });
      const answers = await Promise.all(
        Array.from(
          { length: 60 },
          () =>
            new Promise<string>((resolve, reject) =>
              http
                .get({ host: '127.0.0.1', port: served.port, path: '/who', agent }, (response) => {
                  let body = '';
                  response.on('data', (chunk) => (body += chunk));
                  response.on('end', () => resolve(`${response.statusCode} ${body}`));
                })
                .on('error', reject),
            ),
        ),
      );
      expect(new Set(answers)).toEqual(new Set(['200 {"ok":true}']));
      const accepted = served.accepted();
      expect(sum(accepted)).toBe(60);
      expect(accepted.filter((n) => n > 0).length).toBeGreaterThan(1);
    } finally {
      await served.fastify.close();
    }
  });

  it('stops accepting on every socket when Fastify closes', async () => {
    const served = await serve(4);
    await served.fastify.close();
    expect(served.sockets.listening(served.fastify.server)).toBe(0);
    const refused = await new Promise<string>((resolve) =>
      net
        .connect(served.port, '127.0.0.1')
        .on('connect', function (this: net.Socket) {
          this.destroy();
          resolve('connected');
        })
        .on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error')),
    );
    expect(refused).toBe('ECONNREFUSED');
  });

  it('ends keep-alive connections whose requests were in flight at close once answered, not at the keep-alive timeout', async () => {
    const served = await serve(4);
    const agent = new http.Agent({ keepAlive: true });
    const clientClosed: Array<Promise<void>> = [];
    agent.on('free', (socket: net.Socket) => {
      if (!(socket as { watched?: boolean }).watched) {
        (socket as { watched?: boolean }).watched = true;
        clientClosed.push(new Promise((resolve) => socket.once('close', () => resolve())));
      }
    });
    const get = (route: string) =>
      new Promise<number>((resolve, reject) =>
        http
          .get({ host: '127.0.0.1', port: served.port, path: route, agent }, (response) => {
            response.resume();
            response.on('end', () => resolve(response.statusCode ?? 0));
          })
          .on('error', reject),
      );
    const inFlight = Promise.all(Array.from({ length: 12 }, () => get('/slow')));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const closing = served.fastify.close().then(() => 'closed');
    // Fastify's keep-alive timeout is 72 s: a close still waiting after 10 s waits for it.
    const outcome = await Promise.race([
      closing,
      new Promise<string>((resolve) => setTimeout(() => resolve('still open after 10 s'), 10_000).unref()),
    ]);
    expect(await inFlight).toEqual(Array(12).fill(200));
    expect(outcome).toBe('closed');
    await Promise.all(clientClosed);
    agent.destroy();
  }, 20_000);

  it('serves with the sockets it could open where another one cannot listen (no SO_REUSEPORT)', async () => {
    // The third socket's listen fails as it does where the runtime ignores reusePort.
    const served = await serve(4, (server, n) => {
      if (n === 2)
        server.listen = (() => {
          process.nextTick(() =>
            server.emit('error', Object.assign(new Error('listen EADDRINUSE'), { code: 'EADDRINUSE' })),
          );
          return server;
        }) as typeof server.listen;
    });
    try {
      expect(served.sockets.listening(served.fastify.server)).toBe(2);
      expect((await fetch(`http://127.0.0.1:${served.port}/who`)).status).toBe(200);
    } finally {
      await served.fastify.close();
    }
  });

  it('with one socket, keeps the port its own: a second listener on it fails', async () => {
    const served = await serve(1);
    try {
      const second = http.createServer();
      const outcome = await new Promise<string>((resolve) => {
        second.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
        second.listen({ port: served.port, host: '127.0.0.1', reusePort: true }, () => {
          second.close();
          resolve('listening');
        });
      });
      expect(outcome).toBe('EADDRINUSE');
    } finally {
      await served.fastify.close();
    }
  });
});
