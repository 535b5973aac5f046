import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { MetricsExposition, renderMetrics } from '@swapgw/runtime';
import { GatewayConfig } from '../config/gateway.config';

/**
 * GET /metrics in the Prometheus text format, and nothing else: a plain Node server, so the
 * scraper never goes through the API's authentication, rate limit, envelope or HTTP histogram.
 */
export function createMetricsServer(render: () => Promise<MetricsExposition> = renderMetrics): Server {
  return createServer((req: IncomingMessage, res: ServerResponse) => {
    const send = (status: number, text: string, headers: Record<string, string> = {}) => {
      res.writeHead(status, {
        'content-type': 'text/plain; charset=utf-8',
        'cache-control': 'no-store',
        ...headers,
      });
      res.end(text);
    };
    if ((req.url ?? '').split('?')[0] !== '/metrics')
      return send(404, 'not found: metrics are on /metrics\n');
    if (req.method !== 'GET' && req.method !== 'HEAD')
      return send(405, 'method not allowed\n', { allow: 'GET, HEAD' });
    render().then(
      ({ contentType, body }) => {
        res.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-store' });
        res.end(req.method === 'HEAD' ? undefined : body);
      },
      (error: Error) => send(500, `metrics unavailable: ${error.message}\n`),
    );
  });
}

/**
 * The gateway's metrics endpoint on METRICS_PORT (HOST), apart from the public API port. Listens
 * during app.init() (after the migrations, before the API port listens) and answers whenever the
 * process runs, whatever Kafka and PostgreSQL do: the liveness probe. Closes last on shutdown.
 */
@Injectable()
export class MetricsServer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(MetricsServer.name);
  private server?: Server;

  constructor(@Inject(GatewayConfig) private readonly config: GatewayConfig) {}

  async onApplicationBootstrap(): Promise<void> {
    const { HOST: host, METRICS_PORT: port } = this.config;
    const server = createMetricsServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', (error: Error) =>
        reject(new Error(`METRICS_PORT ${port} on ${host}: ${error.message}`)),
      );
      server.listen(port, host, () => resolve());
    });
    server.removeAllListeners('error');
    server.on('error', (error: Error) =>
      this.logger.error({ msg: 'metrics server error', error: error.message }),
    );
    // Never the reason the process stays up: the API server and the consumers decide that.
    server.unref();
    this.server = server;
    this.logger.log({ msg: 'metrics listening', url: `http://${host}:${this.port()}/metrics` });
  }

  /** The port it listens on (METRICS_PORT, or the one chosen for 0); undefined before the start. */
  port(): number | undefined {
    return (this.server?.address() as AddressInfo | null)?.port;
  }

  async onApplicationShutdown(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      // Scrapers keep their connections open: the API has drained by now, nothing is left to wait for.
      server.closeAllConnections();
    });
  }
}
