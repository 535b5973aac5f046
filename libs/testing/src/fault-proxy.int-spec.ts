import { randomBytes } from 'node:crypto';
import { AddressInfo, createServer, Server, Socket } from 'node:net';
import { Client } from 'pg';
import { FaultProxy } from './fault-proxy';
import { testEnv } from './test-env';
import { waitFor } from './wait-for';

/** A real TCP echo server that counts what it received. */
class EchoServer {
  received = 0;
  private server!: Server;
  private readonly sockets = new Set<Socket>();

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  async start(): Promise<this> {
    this.server = createServer((socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
      socket.on('error', () => undefined);
      socket.on('data', (chunk) => {
        this.received += chunk.length;
        socket.write(chunk);
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', () => resolve()));
    return this;
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** A client connection that collects everything it reads and how it ended. */
class Peer {
  readonly socket: Socket;
  data = Buffer.alloc(0);
  closed = false;
  error: NodeJS.ErrnoException | undefined;

  constructor(port: number) {
    this.socket = new Socket();
    this.socket.on('data', (chunk) => (this.data = Buffer.concat([this.data, chunk])));
    this.socket.on('error', (error) => (this.error = error));
    this.socket.on('close', () => (this.closed = true));
    this.socket.connect(port, '127.0.0.1');
  }

  connected(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.socket.once('connect', resolve);
      this.socket.once('error', reject);
    });
  }

  async echo(payload: Buffer, description: string): Promise<Buffer> {
    const start = this.data.length;
    this.socket.write(payload);
    await waitFor(() => this.data.length >= start + payload.length || this.closed, {
      timeoutMs: 10_000,
      intervalMs: 5,
      description,
    });
    return this.data.subarray(start, start + payload.length);
  }

  destroy(): void {
    this.socket.destroy();
  }
}

describe('FaultProxy in front of a real TCP echo server', () => {
  let echo: EchoServer;
  let proxy: FaultProxy;
  const peers: Peer[] = [];

  async function connect(): Promise<Peer> {
    const peer = new Peer(proxy.port);
    peers.push(peer);
    await peer.connected();
    return peer;
  }

  beforeEach(async () => {
    echo = await new EchoServer().start();
    proxy = await new FaultProxy({ target: { host: '127.0.0.1', port: echo.port } }).start();
  });

  afterEach(async () => {
    for (const peer of peers.splice(0)) peer.destroy();
    await proxy.stop();
    await echo.stop();
  });

  it('passes bytes through unchanged and in order in both directions, and counts them', async () => {
    const peer = await connect();
    const payload = randomBytes(4 * 1024 * 1024);
    expect((await peer.echo(payload, 'the 4 MiB echo')).equals(payload)).toBe(true);
    expect(echo.received).toBe(payload.length);
    expect(proxy.stats()).toEqual({
      accepted: 1,
      active: 1,
      refused: 0,
      cut: 0,
      bytesToTarget: payload.length,
      bytesToClient: payload.length,
      bytesHeld: 0,
    });
  });

  it('adds the latency of each direction to a round trip and keeps chunk order', async () => {
    const peer = await connect();
    proxy.setLatency({ toTarget: 120, toClient: 80 });
    const started = process.hrtime.bigint();
    expect((await peer.echo(Buffer.from('ping'), 'the delayed echo')).toString()).toBe('ping');
    const elapsedMs = Number(process.hrtime.bigint() - started) / 1e6;
    // A lower bound only: the proxy holds each chunk at least its latency (timers may fire 1 ms early).
    expect(elapsedMs).toBeGreaterThanOrEqual(195);

    proxy.setLatency(30);
    const chunks = Array.from({ length: 50 }, (_, i) => Buffer.from(`<${i}>`));
    const expected = Buffer.concat(chunks);
    const start = peer.data.length;
    for (const chunk of chunks) peer.socket.write(chunk);
    await waitFor(() => peer.data.length >= start + expected.length, {
      timeoutMs: 10_000,
      intervalMs: 5,
      description: '50 delayed chunks',
    });
    expect(peer.data.subarray(start).toString()).toBe(expected.toString());

    proxy.setLatency(0);
    expect((await peer.echo(Buffer.from('fast'), 'the echo without latency')).toString()).toBe('fast');
  });

  it('cuts every open connection with a reset and keeps accepting new ones', async () => {
    const open = await Promise.all([connect(), connect(), connect()]);
    for (const peer of open)
      expect((await peer.echo(Buffer.from('hi'), 'echo before the cut')).toString()).toBe('hi');
    expect(proxy.stats().active).toBe(3);

    expect(proxy.cutConnections()).toBe(3);
    await waitFor(() => open.every((peer) => peer.closed), {
      timeoutMs: 5000,
      description: 'cut peers closed',
    });
    for (const peer of open) expect(peer.error?.code).toBe('ECONNRESET');
    expect(proxy.stats()).toMatchObject({ active: 0, cut: 3 });

    const again = await connect();
    expect((await again.echo(Buffer.from('again'), 'echo after the cut')).toString()).toBe('again');
    expect(proxy.stats()).toMatchObject({ accepted: 4, active: 1, cut: 3 });
  });

  it('refuses new connections and cuts open ones while refusing, then forwards again', async () => {
    const before = await connect();
    proxy.setRefusing(true);
    await waitFor(() => before.closed, { timeoutMs: 5000, description: 'open peer cut' });

    const refused = new Peer(proxy.port);
    peers.push(refused);
    refused.socket.write('lost');
    await waitFor(() => refused.closed, { timeoutMs: 5000, description: 'refused peer closed' });
    expect(refused.data.length).toBe(0);
    expect(echo.received).toBe(0);
    expect(proxy.stats()).toMatchObject({ accepted: 1, refused: 1, cut: 1, active: 0 });

    proxy.setRefusing(false);
    const after = await connect();
    expect((await after.echo(Buffer.from('back'), 'echo after refusal')).toString()).toBe('back');
  });

  it('blackhole: accepts and holds every byte in both directions until lifted, then delivers them in order', async () => {
    const open = await connect();
    expect((await open.echo(Buffer.from('a'), 'echo before the blackhole')).toString()).toBe('a');
    proxy.setBlackhole(true);

    const late = await connect();
    open.socket.write('held-1');
    late.socket.write('held-2');
    // Once the proxy holds both writes, the echo server cannot have seen them.
    await waitFor(() => proxy.stats().bytesHeld === 12, { timeoutMs: 5000, description: 'both writes held' });
    expect(echo.received).toBe(1);
    expect(open.data.toString()).toBe('a');
    expect(late.data.length).toBe(0);
    expect(proxy.stats()).toMatchObject({ accepted: 2, active: 2, bytesToTarget: 1 });

    proxy.setBlackhole(false);
    await waitFor(() => open.data.toString() === 'aheld-1' && late.data.toString() === 'held-2', {
      timeoutMs: 5000,
      description: 'held bytes delivered',
    });
    expect(proxy.stats().bytesHeld).toBe(0);
  });

  it('closes the client side when the target goes away, and the target side when the client leaves', async () => {
    const peer = await connect();
    await peer.echo(Buffer.from('x'), 'first echo');
    await echo.stop();
    await waitFor(() => peer.closed, { timeoutMs: 5000, description: 'client closed after the target left' });
    expect(proxy.stats().active).toBe(0);
    echo = await new EchoServer().start();
    proxy.setTarget({ host: '127.0.0.1', port: echo.port });
    const next = await connect();
    await next.echo(Buffer.from('y'), 'echo on the new target');
    next.destroy();
    await waitFor(() => proxy.stats().active === 0, {
      timeoutMs: 5000,
      description: 'link gone after the client left',
    });
  });
});

describe('FaultProxy in front of the real PostgreSQL', () => {
  const databaseUrl = new URL(testEnv().databaseUrl);
  let proxy: FaultProxy;

  beforeEach(async () => {
    proxy = await new FaultProxy({
      target: { host: databaseUrl.hostname, port: Number(databaseUrl.port || 5432) },
    }).start();
  });
  afterEach(async () => proxy.stop());

  const client = (): Client => {
    const url = new URL(databaseUrl.toString());
    url.host = proxy.address;
    const c = new Client({ connectionString: url.toString(), connectionTimeoutMillis: 3000 });
    c.on('error', () => undefined);
    return c;
  };

  it('forwards queries, fails them while refusing, and serves new connections once restored', async () => {
    const c = client();
    await c.connect();
    expect((await c.query('SELECT 41 + 1 AS answer')).rows[0].answer).toBe(42);
    proxy.setRefusing(true);
    await expect(c.query('SELECT 1')).rejects.toThrow();
    await expect(client().connect()).rejects.toThrow();
    proxy.setRefusing(false);
    const again = client();
    await again.connect();
    expect((await again.query('SELECT 2 AS two')).rows[0].two).toBe(2);
    await again.end();
  });
});
