import { AddressInfo, createServer, Server, Socket } from 'node:net';

/**
 * A TCP proxy in front of PostgreSQL or Kafka that a test can switch off: while refusing, open
 * connections are cut and new ones closed at once, as if the server were gone.
 */
export class SwitchableProxy {
  private server?: Server;
  private readonly sockets = new Set<Socket>();
  private refusing = false;

  constructor(private readonly target: { host: string; port: number }) {}

  get address(): string {
    return `127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
  }

  async start(): Promise<this> {
    this.server = createServer((client) => this.accept(client));
    await new Promise<void>((resolve, reject) => {
      this.server!.once('error', reject);
      this.server!.listen(0, '127.0.0.1', () => resolve());
    });
    return this;
  }

  setRefusing(refusing: boolean): void {
    this.refusing = refusing;
    if (refusing) for (const socket of this.sockets) socket.destroy();
  }

  async stop(): Promise<void> {
    this.setRefusing(true);
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private accept(client: Socket): void {
    if (this.refusing) {
      client.destroy();
      return;
    }
    const upstream = new Socket();
    for (const socket of [client, upstream]) {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    }
    const closeBoth = (): void => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', closeBoth).on('close', closeBoth);
    upstream.on('error', closeBoth).on('close', closeBoth);
    upstream.connect(this.target.port, this.target.host);
    client.pipe(upstream);
    upstream.pipe(client);
  }
}
