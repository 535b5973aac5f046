import http from 'node:http';
import { AddressInfo } from 'node:net';
import { api } from './api-client';

// The client's two transports (the global fetch, and node:http through an agent) answer alike:
// what a test reads of a response does not depend on which one sent the request.

describe('api client', () => {
  let server: http.Server;
  let baseUrl: string;
  const agent = new http.Agent({ keepAlive: true });
  const seen: Array<{ method?: string; url?: string; headers: http.IncomingHttpHeaders; body: string }> = [];

  beforeAll(async () => {
    server = http.createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => {
        seen.push({ method: request.method, url: request.url, headers: request.headers, body });
        if (request.url?.startsWith('/api/v1/slow')) return; // never answers
        if (request.url?.startsWith('/api/v1/text')) {
          response.writeHead(503, { 'content-type': 'text/plain' });
          return response.end('busy');
        }
        response.writeHead(201, { 'content-type': 'application/json', 'x-request-id': 'r-1' });
        response.end(JSON.stringify({ data: { echoed: body ? JSON.parse(body) : null } }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
  });

  afterAll(async () => {
    agent.destroy();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  /** The client of each transport (made when a test runs: the server's port is known then). */
  const clientOf = (transport: 'fetch' | 'agent') =>
    transport === 'fetch' ? api(baseUrl, 'k-1') : api(baseUrl, 'k-1', { agent });
  const transports = ['fetch', 'agent'] as const;

  it.each(transports)(
    '%s: sends the key, the Idempotency-Key, the query and the JSON body, and parses a JSON answer',
    async (transport) => {
      const client = clientOf(transport);
      seen.length = 0;
      const answer = await client.post(
        '/quote',
        { amount: '1' },
        { idempotencyKey: 'i-1', query: { debug: true } },
      );
      expect(answer).toEqual({
        status: 201,
        headers: expect.objectContaining({ 'content-type': 'application/json', 'x-request-id': 'r-1' }),
        body: { data: { echoed: { amount: '1' } } },
      });
      expect(seen[0]).toMatchObject({
        method: 'POST',
        url: '/api/v1/quote?debug=true',
        headers: expect.objectContaining({
          authorization: 'Bearer k-1',
          'idempotency-key': 'i-1',
          'content-type': 'application/json',
        }),
        body: '{"amount":"1"}',
      });
    },
  );

  it.each(transports)('%s: gives a non-JSON answer as text, whatever its status', async (transport) => {
    const client = clientOf(transport);
    expect(await client.get('/text')).toMatchObject({ status: 503, body: 'busy' });
  });

  it.each(transports)('%s: fails with a TimeoutError when no answer comes in time', async (transport) => {
    const client = clientOf(transport);
    await expect(client.get('/slow', { timeoutMs: 200 })).rejects.toMatchObject({ name: 'TimeoutError' });
  });
});
