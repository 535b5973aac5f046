import { createServer, IncomingHttpHeaders, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';

/** A request as the local upstream saw it. */
export interface UpstreamRequest {
  method: string;
  url: URL;
  headers: IncomingHttpHeaders;
  /** The JSON body of a POST, parsed; undefined without one. */
  body?: Record<string, unknown>;
}

export type UpstreamHandler = (request: UpstreamRequest, res: ServerResponse) => void;

/**
 * A local HTTP server standing in for a provider's API (LI.FI, Jupiter, 0x, Across) in the
 * provider int-specs: every request is recorded, then answered by `handler`, which each test sets to
 * answers shaped exactly as the provider documents them. The default handler answers 500.
 */
export class LocalUpstream {
  handler: UpstreamHandler = (_request, res) => json(res, 500, { message: 'no handler' });
  readonly requests: UpstreamRequest[] = [];
  private server?: Server;
  port = 0;

  /** Listens on 127.0.0.1 (`port` 0: any free port). */
  async start(port = 0): Promise<void> {
    const server = createServer((req, res) => void this.receive(req, res));
    this.server = server;
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    this.port = (server.address() as AddressInfo).port;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private async receive(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let text = '';
    for await (const chunk of req) text += chunk;
    const request: UpstreamRequest = {
      method: req.method ?? 'GET',
      url: new URL(req.url ?? '/', 'http://127.0.0.1'),
      headers: req.headers,
      body: text ? (JSON.parse(text) as Record<string, unknown>) : undefined,
    };
    this.requests.push(request);
    this.handler(request, res);
  }
}

/** Answers `body` as JSON with `status`. */
export function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/**
 * Answers a JSON-RPC request (an EVM node's, as ethers sends them: one call per POST) with what
 * `answer` returns for its method and params: a result, or an `{ error }` for a JSON-RPC error.
 */
export function jsonRpc(
  request: UpstreamRequest,
  res: ServerResponse,
  answer: (method: string, params: unknown[]) => unknown,
): void {
  const { id, method, params } = request.body as { id: number; method: string; params: unknown[] };
  const answered = answer(method, params);
  const error = (answered as { error?: unknown } | undefined)?.error;
  json(res, 200, error ? { jsonrpc: '2.0', id, error } : { jsonrpc: '2.0', id, result: answered });
}
