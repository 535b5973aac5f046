import { api } from '@swapgw/testing';
import {
  dropTestDatabase,
  startTestGateway,
  TestGateway,
  testDatabaseUrl,
} from '../../test/support/test-gateway';

// The real gateway (createGatewayApp, as main.ts) on real PostgreSQL and Kafka: after requests,
// GET /metrics on METRICS_PORT shows them in the HTTP histogram under their route templates; the
// public API port serves no metrics.

/** Value of one sample in Prometheus text, by metric name and exact label set (any order). */
function sampleOf(text: string, name: string, labels: Record<string, string>): number | undefined {
  for (const line of text.split('\n')) {
    const match = /^([a-z_:]+)\{([^}]*)\} (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries([...match[2].matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    if (
      Object.keys(found).length === Object.keys(labels).length &&
      Object.entries(labels).every(([k, v]) => found[k] === v)
    ) {
      return Number(match[3]);
    }
  }
  return undefined;
}

describe('gateway GET /metrics on METRICS_PORT', () => {
  const databaseUrl = testDatabaseUrl('metrics');
  let gateway: TestGateway;

  beforeAll(async () => {
    gateway = await startTestGateway({ databaseUrl });
  });

  afterAll(async () => {
    try {
      await gateway?.close();
    } finally {
      await dropTestDatabase(databaseUrl);
    }
  });

  it('times requests by method, route template and status, without an API key or a rate limit', async () => {
    const client = api(gateway.baseUrl);
    const health = await client.get('/health');
    expect([200, 503]).toContain(health.status);
    const order = await client.get('/limit-orders/limit/lo_0123456789abcdef');
    expect(order.status).toBe(401);
    expect((await client.get('/no-such-route/42')).status).toBe(404);

    const res = await fetch(gateway.metricsUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(res.headers.get('ratelimit-limit')).toBeNull();
    const text = await res.text();

    const count = (route: string, status: number) =>
      sampleOf(text, 'swapgw_http_request_duration_seconds_count', {
        method: 'GET',
        route,
        status_code: String(status),
        service: 'gateway',
      });
    expect(count('/api/v1/health', health.status)).toBe(1);
    expect(count('/api/v1/limit-orders/limit/:limitOrderId', 401)).toBe(1);
    expect(count('unmatched', 404)).toBe(1);
    // Ids in paths never become label values.
    expect(text).not.toContain('lo_0123456789abcdef');
    expect(text).not.toContain('no-such-route');
    // The bucket series of the same request, and the default process metrics.
    expect(
      sampleOf(text, 'swapgw_http_request_duration_seconds_bucket', {
        le: '+Inf',
        method: 'GET',
        route: '/api/v1/health',
        status_code: String(health.status),
        service: 'gateway',
      }),
    ).toBe(1);
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds\{service="gateway"\} /m);
    // Nothing waits to be accepted on the API port of an idle gateway: the kernel's own count, read at scrape time.
    if (process.platform === 'linux')
      expect(sampleOf(text, 'swapgw_http_accept_queue_connections', { service: 'gateway' })).toBe(0);
  });

  it('is an operator endpoint on its own port: plain text, not enveloped; the API port has no /metrics', async () => {
    const res = await fetch(gateway.metricsUrl);
    expect(await res.text()).toMatch(/^# HELP /);
    expect(new URL(gateway.metricsUrl).port).not.toBe(new URL(gateway.baseUrl).port);

    const publicRoute = await fetch(`${gateway.baseUrl}/metrics`);
    expect(publicRoute.status).toBe(404);
    expect(((await publicRoute.json()) as { error: { code: string } }).error.code).toBe('NOT_FOUND');
    const doc = (await (await fetch(`${gateway.baseUrl}/openapi.json`)).json()) as {
      paths: Record<string, unknown>;
    };
    expect(doc.paths['/metrics']).toBeUndefined(); // paths are relative to the server, /api/v1
    expect(doc.paths['/health']).toBeDefined();
  });

  it('stops serving when the gateway closes', async () => {
    const other = await startTestGateway({ databaseUrl, prepare: false });
    expect((await fetch(other.metricsUrl)).status).toBe(200);
    await other.close();
    await expect(fetch(other.metricsUrl)).rejects.toThrow();
  });
});
