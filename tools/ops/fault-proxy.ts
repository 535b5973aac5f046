import { createServer, Server, Socket } from 'node:net';
import { AddressInfo } from 'node:net';

export interface FaultProxyOptions {
  /** Where connections are forwarded. */
  target: { host: string; port: number };
  /** Listen port; 0 picks a free one. */
  listenPort?: number;
  listenHost?: string;
}

/**
 * A small TCP proxy for fault tests: sits in front of Kafka or PostgreSQL, adds latency to every
 * chunk in both directions, cuts all open connections, or refuses new ones, while the test runs.
 */
export class FaultProxy {
  private server: Server | undefined;
  private readonly connections = new Set<Socket>();
  private latencyMs = 0;
  private refusing = false;

  constructor(private readonly options: FaultProxyOptions) {}

  get port(): number {
    return (this.server?.address() as AddressInfo).port;
  }

  get address(): string {
    return `${this.options.listenHost ?? '127.0.0.1'}:${this.port}`;
  }

  get openConnections(): number {
    return this.connections.size / 2;
  }

  async start(): Promise<this> {
    this.server = createServer((client) => this.accept(client));
    await new Promise<void>((resolve, reject) => {
      this.server!.once('error', reject);
      this.server!.listen(this.options.listenPort ?? 0, this.options.listenHost ?? '127.0.0.1', () => resolve());
    });
    return this;
  }

  /** Delay applied to each chunk, in each direction. */
  setLatency(ms: number): void {
    this.latencyMs = Math.max(0, ms);
  }

  /** Destroys every open connection (both sides), as a network cut would. */
  cutConnections(): void {
    for (const socket of this.connections) socket.destroy();
    this.connections.clear();
  }

  /** While refusing, new connections are closed at once and open ones are cut. */
  setRefusing(refusing: boolean): void {
    this.refusing = refusing;
    if (refusing) this.cutConnections();
  }

  async stop(): Promise<void> {
    this.cutConnections();
    if (!this.server) return;
    await new Promise<void>((resolve) => this.server!.close(() => resolve()));
    this.server = undefined;
  }

  private accept(client: Socket): void {
    if (this.refusing) {
      client.destroy();
      return;
    }
    const upstream = new Socket();
    this.track(client);
    this.track(upstream);
    upstream.connect(this.options.target.port, this.options.target.host);
    this.pipe(client, upstream);
    this.pipe(upstream, client);
    const closeBoth = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', closeBoth).on('close', closeBoth);
    upstream.on('error', closeBoth).on('close', closeBoth);
  }

  private pipe(from: Socket, to: Socket): void {
    // Chunks keep their order: each is scheduled after the previous one has been written.
    let chain = Promise.resolve();
    from.on('data', (chunk) => {
      const delay = this.latencyMs;
      chain = chain.then(
        () =>
          new Promise<void>((resolve) => {
            const write = () => {
              if (!to.destroyed) to.write(chunk);
              resolve();
            };
            if (delay > 0) setTimeout(write, delay);
            else write();
          }),
      );
    });
  }

  private track(socket: Socket): void {
    this.connections.add(socket);
    socket.on('close', () => this.connections.delete(socket));
  }
}
