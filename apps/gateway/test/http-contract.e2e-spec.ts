import { api, ApiClient } from '@swapgw/testing';
import { ProbeModule } from './support/probe.module';
import { dropTestDatabase, startTestGateway, TestGateway, testDatabaseUrl } from './support/test-gateway';

const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('gateway HTTP contract (envelope, request id, errors)', () => {
  const databaseUrl = testDatabaseUrl('contract');
  let gateway: TestGateway;
  let client: ApiClient;
  let anonymous: ApiClient;

  beforeAll(async () => {
    gateway = await startTestGateway({
      databaseUrl,
      extraModules: [ProbeModule],
      env: { BODY_LIMIT_BYTES: '2048' },
    });
    client = api(gateway.baseUrl, await gateway.createKey('contract-owner'));
    anonymous = api(gateway.baseUrl);
  });

  afterAll(async () => {
    try {
      await gateway?.close();
    } finally {
      await dropTestDatabase(databaseUrl);
    }
  });

  const expectApiError = (body: any, code: string): void => {
    expect(body.error.code).toBe(code);
    expect(typeof body.error.message).toBe('string');
    expect(body.meta.requestId).toEqual(expect.any(String));
    expect(body.meta.timestamp).toMatch(ISO_TIMESTAMP);
    expect(JSON.stringify(body)).not.toMatch(/at .*\.(ts|js):\d+/);
  };

  it('wraps a success in { data, meta } and echoes a well-formed X-Request-Id', async () => {
    const res = await client.post(
      '/test-probe/echo',
      { amount: '1.5' },
      { headers: { 'x-request-id': 'client-req.42' } },
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: { amount: '1.5' },
      meta: { requestId: 'client-req.42', timestamp: expect.stringMatching(ISO_TIMESTAMP) },
    });
    expect(res.headers['x-request-id']).toBe('client-req.42');
    expect(res.headers.traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$/);
  });

  it('replaces a malformed X-Request-Id with a new one, the same in header and meta', async () => {
    const res = await client.get('/test-probe/query', { headers: { 'x-request-id': 'bad id with spaces' } });
    expect(res.status).toBe(200);
    expect(res.headers['x-request-id']).not.toBe('bad id with spaces');
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.body.meta.requestId).toBe(res.headers['x-request-id']);
  });

  it('continues an incoming W3C trace (same trace id, new span)', async () => {
    const incoming = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
    const res = await client.get('/test-probe/query', { headers: { traceparent: incoming } });
    expect(res.headers.traceparent).toMatch(/^00-4bf92f3577b34da6a3ce929d0e0e4736-[0-9a-f]{16}-01$/);
    expect(res.headers.traceparent).not.toBe(incoming);
  });

  it('keeps the request context (request id, trace) inside the handler after body parsing and I/O', async () => {
    const traceparent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
    const res = await client.post(
      '/test-probe/context',
      { amount: '1' },
      { headers: { 'x-request-id': 'ctx-1', traceparent } },
    );
    expect(res.status).toBe(200);
    expect(res.body.data.context.requestId).toBe('ctx-1');
    expect(res.body.data.context.traceparent).toBe(res.headers.traceparent);
    expect(res.body.data.context.traceparent).toMatch(/^00-0af7651916cd43dd8448eb211c80319c-/);
  });

  it('maps a service call that gets no answer in time to 503 (or the upstream code the route chose)', async () => {
    const unavailable = await client.get('/test-probe/service-timeout');
    expect(unavailable.status).toBe(503);
    expectApiError(unavailable.body, 'SERVICE_UNAVAILABLE');
    const upstream = await client.get('/test-probe/service-timeout', { query: { as: 'upstream' } });
    expect(upstream.status).toBe(502);
    expectApiError(upstream.body, 'QUOTE_UPSTREAM_FAILED');
  });

  it('answers 404 NOT_FOUND in the ApiError shape for an unknown route, with or without a key', async () => {
    for (const c of [client, anonymous]) {
      const res = await c.get('/no/such/route');
      expect(res.status).toBe(404);
      expectApiError(res.body, 'NOT_FOUND');
      expect(res.body.meta.requestId).toBe(res.headers['x-request-id']);
    }
    const outside = await fetch(gateway.baseUrl.replace('/api/v1', '/elsewhere'));
    expect(outside.status).toBe(404);
    expectApiError(await outside.json(), 'NOT_FOUND');
  });

  it('answers 405 METHOD_NOT_ALLOWED with an Allow header for a known path and wrong method', async () => {
    const res = await client.delete('/test-probe/echo');
    expect(res.status).toBe(405);
    expectApiError(res.body, 'METHOD_NOT_ALLOWED');
    expect(res.headers.allow).toBe('POST');
    const health = await anonymous.post('/health', {});
    expect(health.status).toBe(405);
    expect(health.headers.allow).toBe('GET, HEAD');
  });

  it('answers 400 MALFORMED_JSON for a body that is not JSON', async () => {
    const res = await client.post('/test-probe/echo', '{"amount": "1.5",', {
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expectApiError(res.body, 'MALFORMED_JSON');
  });

  it('refuses prototype-poisoning bodies as malformed JSON', async () => {
    const res = await client.post('/test-probe/echo', '{"amount":"1","__proto__":{"admin":true}}');
    expect(res.status).toBe(400);
    expectApiError(res.body, 'MALFORMED_JSON');
  });

  it('answers 415 UNSUPPORTED_MEDIA_TYPE for a non-JSON body', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/xml']) {
      const res = await client.post('/test-probe/echo', 'amount=1', { headers: { 'content-type': type } });
      expect(res.status).toBe(415);
      expectApiError(res.body, 'UNSUPPORTED_MEDIA_TYPE');
    }
  });

  it('answers 413 PAYLOAD_TOO_LARGE above BODY_LIMIT_BYTES', async () => {
    const res = await client.post('/test-probe/echo', { amount: '1', recipient: 'x'.repeat(4096) });
    expect(res.status).toBe(413);
    expectApiError(res.body, 'PAYLOAD_TOO_LARGE');
  });

  it('answers 431 HEADERS_TOO_LARGE in the ApiError shape when the request head exceeds 16 KiB', async () => {
    // Node's HTTP parser refuses this before any route runs; the gateway still answers an ApiError.
    const res = await fetch(`${gateway.baseUrl}/chains?q=${'x'.repeat(20_000)}`);
    expect(res.status).toBe(431);
    const body = (await res.json()) as {
      error: { code: string; message: string };
      meta: { requestId: string; timestamp: string };
    };
    expect(body.error.code).toBe('HEADERS_TOO_LARGE');
    expect(body.meta.requestId).toBe(res.headers.get('x-request-id'));
    expect(Number.isNaN(Date.parse(body.meta.timestamp))).toBe(false);
  });

  it('answers 400 MALFORMED_REQUEST in the ApiError shape for a path with a broken percent-escape', async () => {
    const res = await fetch(`${gateway.baseUrl}/swap/%/signing`, {
      headers: { 'x-request-id': 'bad-url-1' },
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { code: string }; meta: { requestId: string } };
    expect(body.error.code).toBe('MALFORMED_REQUEST');
    expect(body.meta.requestId).toBe('bad-url-1');
  });

  it('answers 400 VALIDATION_FAILED naming each bad field and why', async () => {
    const res = await client.post('/test-probe/echo', {
      amount: '1e5',
      userAddress: '0xABCDEFabcdef0123456789abcdef0123456789ab',
      tokenRef: 'eip155:1:erc20',
      slippageBps: 'high',
      unknownField: true,
    });
    expect(res.status).toBe(400);
    expectApiError(res.body, 'VALIDATION_FAILED');
    const fields = Object.fromEntries(
      (res.body.error.details.fields as Array<{ field: string; reasons: string[] }>).map((f) => [
        f.field,
        f.reasons.join(' '),
      ]),
    );
    expect(Object.keys(fields).sort()).toEqual([
      'amount',
      'slippageBps',
      'tokenRef',
      'unknownField',
      'userAddress',
    ]);
    expect(fields.amount).toMatch(/positive decimal string/);
    expect(fields.userAddress).toMatch(/checksum/);
    expect(fields.tokenRef).toMatch(/<namespace>:<chain id>:<kind>:<address>/);
    expect(fields.unknownField).toMatch(/should not exist/);
  });

  it('accepts 1 / true for boolean-like query flags and refuses other values', async () => {
    for (const [value, parsed] of [
      ['1', true],
      ['true', true],
      ['0', false],
      ['false', false],
    ] as const) {
      const res = await client.get('/test-probe/query', { query: { supportedOnly: value } });
      expect(res.status).toBe(200);
      expect(res.body.data.supportedOnly).toBe(parsed);
    }
    const bad = await client.get('/test-probe/query', { query: { supportedOnly: 'yes' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.fields[0].field).toBe('supportedOnly');
    const unknown = await client.get('/test-probe/query', { query: { nope: '1' } });
    expect(unknown.status).toBe(400);
    expectApiError(unknown.body, 'VALIDATION_FAILED');
  });

  it('answers 500 INTERNAL_ERROR without leaking the error message or stack', async () => {
    const res = await client.get('/test-probe/boom');
    expect(res.status).toBe(500);
    expectApiError(res.body, 'INTERNAL_ERROR');
    expect(JSON.stringify(res.body)).not.toContain('secret internal detail');
  });

  it('answers POST with 200 (not Nest’s default 201) unless the handler says otherwise', async () => {
    const res = await client.post('/test-probe/echo', { amount: '2' });
    expect(res.status).toBe(200);
  });
});
