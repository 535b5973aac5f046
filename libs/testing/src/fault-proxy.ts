import { AddressInfo, createServer, Server, Socket } from 'node:net';

export interface FaultProxyTarget {
  host: string;
  port: number;
}

export interface FaultProxyOptions {
  /** Where connections are forwarded; `setTarget` may set or change it later. */
  target?: FaultProxyTarget;
  /** Listen port; 0 (default) picks a free one. */
  listenPort?: number;
  listenHost?: string;
}

/** Delay added to every chunk, per direction. */
export interface FaultProxyLatency {
  /** Client → target (requests). */
  toTarget: number;
  /** Target → client (answers). */
  toClient: number;
}

export interface FaultProxyStats {
  /** Connections accepted and forwarded since start. */
  accepted: number;
  /** Connections open right now (client side). */
  active: number;
  /** Connections closed at once because the proxy was refusing. */
  refused: number;
  /** Open connections destroyed by `cutConnections` or `setRefusing(true)`. */
  cut: number;
  /** Bytes forwarded client → target. */
  bytesToTarget: number;
  /** Bytes forwarded target → client. */
  bytesToClient: number;
  /** Bytes received and not yet forwarded (held by latency or the blackhole), both directions. */
  bytesHeld: number;
}

interface Link {
  client: Socket;
  upstream: Socket;
}

/**
 * A small TCP proxy of our own for fault tests, in front of PostgreSQL or a Kafka broker (which
 * must advertise the proxy's address, see `startKafkaBrokerBehindProxy`). Every fault is switched
 * at runtime while the real processes keep running:
 *   - latency: each chunk is held `ms` in its direction; order is kept, throughput is not divided;
 *   - cut: every open connection is reset (RST) on both sides; new ones are accepted as before;
 *   - refusing: new connections are reset at once and open ones cut, as if the server were gone;
 *   - blackhole: connections are accepted and kept open, but no byte goes through in either
 *     direction until it is lifted (a network partition: TCP holds the bytes, the peers wait for
 *     their own timeouts); then the held bytes are delivered in order.
 */
export class FaultProxy {
  private server: Server | undefined;
  private target: FaultProxyTarget | undefined;
  private readonly links = new Set<Link>();
  private latency: FaultProxyLatency = { toTarget: 0, toClient: 0 };
  private refusing = false;
  private blackhole: { lifted: Promise<void>; lift: () => void } | undefined;
  private readonly counters = {
    accepted: 0,
    refused: 0,
    cut: 0,
    bytesToTarget: 0,
    bytesToClient: 0,
    bytesHeld: 0,
  };

  constructor(private readonly options: FaultProxyOptions = {}) {
    this.target = options.target;
  }

  get host(): string {
    return this.options.listenHost ?? '127.0.0.1';
  }

  get port(): number {
    if (!this.server) throw new Error('FaultProxy is not started');
    return (this.server.address() as AddressInfo).port;
  }

  /** `host:port` to give clients instead of the target's. */
  get address(): string {
    return `${this.host}:${this.port}`;
  }

  stats(): FaultProxyStats {
    return { ...this.counters, active: this.links.size };
  }

  async start(): Promise<this> {
    const server = createServer((client) => this.accept(client));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.options.listenPort ?? 0, this.host, () => resolve());
    });
    this.server = server;
    return this;
  }

  /** Where new connections go (open ones keep theirs). */
  setTarget(target: FaultProxyTarget): void {
    this.target = target;
  }

  /** Delay per chunk: one number for both directions, or each direction apart. 0 turns it off. */
  setLatency(ms: number | Partial<FaultProxyLatency>): void {
    const next = typeof ms === 'number' ? { toTarget: ms, toClient: ms } : { ...this.latency, ...ms };
    this.latency = { toTarget: Math.max(0, next.toTarget), toClient: Math.max(0, next.toClient) };
  }

  /** Resets every open connection on both sides, as a network cut would; returns how many. */
  cutConnections(): number {
    const open = [...this.links];
    for (const link of open) {
      this.links.delete(link);
      link.client.resetAndDestroy();
      link.upstream.resetAndDestroy();
    }
    this.counters.cut += open.length;
    return open.length;
  }

  /** While refusing, new connections are reset at once; switching it on cuts the open ones too. */
  setRefusing(refusing: boolean): void {
    this.refusing = refusing;
    if (refusing) this.cutConnections();
  }

  /** While on, nothing is forwarded in either direction; held bytes flow again once it is off. */
  setBlackhole(on: boolean): void {
    if (on && !this.blackhole) {
      let lift = (): void => undefined;
      const lifted = new Promise<void>((resolve) => (lift = resolve));
      this.blackhole = { lifted, lift };
    } else if (!on && this.blackhole) {
      const { lift } = this.blackhole;
      this.blackhole = undefined;
      lift();
    }
  }

  /** Back to a plain pass-through: no latency, no refusal, no blackhole. */
  reset(): void {
    this.setLatency(0);
    this.setRefusing(false);
    this.setBlackhole(false);
  }

  async stop(): Promise<void> {
    this.setBlackhole(false);
    this.cutConnections();
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private accept(client: Socket): void {
    if (this.refusing || !this.target) {
      this.counters.refused++;
      client.on('error', () => undefined);
      client.resetAndDestroy();
      return;
    }
    this.counters.accepted++;
    const upstream = new Socket();
    const link: Link = { client, upstream };
    this.links.add(link);
    const closeBoth = (): void => {
      this.links.delete(link);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', closeBoth);
    upstream.on('error', closeBoth);
    upstream.connect(this.target.port, this.target.host);
    this.forward(client, upstream, 'toTarget', closeBoth);
    this.forward(upstream, client, 'toClient', closeBoth);
  }

  /**
   * Forwards `from` → `to`, chunk by chunk, each written no earlier than its arrival plus the
   * latency of that direction and never before the chunk ahead of it. When `from` ends or closes,
   * `to` is closed once the chunks ahead have been written.
   */
  private forward(from: Socket, to: Socket, direction: keyof FaultProxyLatency, closeBoth: () => void): void {
    let chain = Promise.resolve();
    const counter = direction === 'toTarget' ? 'bytesToTarget' : 'bytesToClient';
    from.on('data', (chunk: Buffer) => {
      const dueAt = Date.now() + this.latency[direction];
      this.counters.bytesHeld += chunk.length;
      chain = chain.then(async () => {
        const wait = dueAt - Date.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        while (this.blackhole) await this.blackhole.lifted;
        this.counters.bytesHeld -= chunk.length;
        if (to.destroyed) return;
        this.counters[counter] += chunk.length;
        if (!to.write(chunk) && !from.destroyed) {
          from.pause();
          to.once('drain', () => from.resume());
        }
      });
    });
    from.on('close', () => {
      chain = chain.then(closeBoth);
    });
  }
}
