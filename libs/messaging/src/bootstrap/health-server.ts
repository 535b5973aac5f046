import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { MetricsExposition, renderMetrics } from '@swapgw/runtime';

export type CheckStatus = 'up' | 'down';

export interface HealthBody {
  status: 'ok' | 'unavailable';
  uptimeSeconds: number;
  checks: { kafka: CheckStatus; database: CheckStatus; warmup: CheckStatus };
}

export interface HealthChecks {
  kafka: () => boolean | Promise<boolean>;
  database: () => boolean | Promise<boolean>;
  /** The start's warm-ups settled (bootstrapKafkaService, StartupWarmup); up when not given. */
  warmup?: () => boolean | Promise<boolean>;
}

const startedAt = Date.now();

export async function healthBody(checks: HealthChecks): Promise<HealthBody> {
  const settle = async (check: () => boolean | Promise<boolean>): Promise<CheckStatus> => {
    try {
      return (await check()) ? 'up' : 'down';
    } catch {
      return 'down';
    }
  };
  const [kafka, database, warmup] = await Promise.all([
    settle(checks.kafka),
    settle(checks.database),
    settle(checks.warmup ?? (() => true)),
  ]);
  return {
    status: kafka === 'up' && database === 'up' && warmup === 'up' ? 'ok' : 'unavailable',
    uptimeSeconds: Math.floor((Date.now() - startedAt) / 1000),
    checks: { kafka, database, warmup },
  };
}

/**
 * GET /health/live (200 while the process runs) and GET /health/ready (200 once Kafka and the
 * database are up and the start's warm-ups settled, else 503), on a plain Node server: it answers before Nest has started, which a
 * liveness probe needs while migrations run. GET /metrics serves the process's metrics in the
 * Prometheus text format on the same port, so one port per service is scraped and probed.
 */
export function startHealthServer(
  port: number,
  host: string,
  checks: HealthChecks,
  metrics: () => Promise<MetricsExposition> = renderMetrics,
): Promise<Server> {
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, {
        'content-type': 'application/json; charset=utf-8',
        'cache-control': 'no-store',
      });
      res.end(JSON.stringify(body));
    };
    const path = (req.url ?? '').split('?')[0];
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(405, { status: 'method not allowed' });
    if (path === '/health/live') {
      void healthBody(checks).then((body) => send(200, { ...body, status: 'ok' }));
      return;
    }
    if (path === '/metrics') {
      metrics().then(
        ({ contentType, body }) => {
          res.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-store' });
          res.end(body);
        },
        (error: Error) => send(500, { status: 'metrics unavailable', error: error.message }),
      );
      return;
    }
    if (path === '/health/ready' || path === '/health') {
      void healthBody(checks).then((body) => send(body.status === 'ok' ? 200 : 503, body));
      return;
    }
    send(404, { status: 'not found' });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server);
    });
  });
}
