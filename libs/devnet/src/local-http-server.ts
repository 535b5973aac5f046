import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { DevnetError, DevnetErrorCode } from './devnet-error';

/** The HTTP listener of a local chain's API (Solana's JSON-RPC, Bitcoin's Esplora). */
export class LocalHttpServer {
  private server: Server | undefined;

  constructor(private readonly handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>) {}

  /** Resolves with the port listened on (0 = any free one). */
  async listen(port: number, host = '127.0.0.1'): Promise<number> {
    const server = createServer((req, res) => void this.handle(req, res));
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => resolve());
    });
    return (server.address() as AddressInfo).port;
  }

  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    this.server = undefined;
  }
}

/** Opens a local chain's server; a DevnetError naming the chain and the port when it cannot. */
export async function listenLocalChain(
  server: { listen(port: number, host: string): Promise<number> },
  chain: string,
  requestedPort: number,
  host: string,
  code: DevnetErrorCode,
): Promise<number> {
  try {
    return await server.listen(requestedPort, host);
  } catch (error) {
    const reason =
      (error as NodeJS.ErrnoException).code === 'EADDRINUSE'
        ? `port ${requestedPort} is already in use`
        : (error as Error).message;
    throw new DevnetError(code, `${chain} could not listen on ${host}:${requestedPort}: ${reason}`, {
      port: requestedPort,
    });
  }
}
