import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMetricsServer } from './metrics-server';

describe('createMetricsServer', () => {
  let server: Server;
  let base: string;
  let failing = false;

  beforeAll(async () => {
    server = createMetricsServer(async () => {
      if (failing) throw new Error('registry broke');
      return { contentType: 'text/plain; version=0.0.4; charset=utf-8', body: '# HELP up 1\nup 1\n' };
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('serves GET /metrics in the Prometheus text format, not cached', async () => {
    const res = await fetch(`${base}/metrics?x=1`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.text()).toBe('# HELP up 1\nup 1\n');
    expect((await fetch(`${base}/metrics`, { method: 'HEAD' })).status).toBe(200);
  });

  it('serves nothing else: 404 for other paths (the API is not here), 405 for other methods', async () => {
    for (const path of ['/', '/api/v1/metrics', '/api/v1/health', '/metrics/x']) {
      expect((await fetch(`${base}${path}`)).status).toBe(404);
    }
    const post = await fetch(`${base}/metrics`, { method: 'POST', body: '{}' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
  });

  it('answers 500 when the registry cannot render', async () => {
    failing = true;
    try {
      const res = await fetch(`${base}/metrics`);
      expect(res.status).toBe(500);
      expect(await res.text()).toContain('registry broke');
    } finally {
      failing = false;
    }
  });
});
