import { api } from '@swapgw/testing';
import { OpenApiValidator } from './support/openapi-validator';
import { dropTestDatabase, startTestGateway, TestGateway, testDatabaseUrl } from './support/test-gateway';

const DOCUMENT_ROUTES = new Set(['/api/v1/openapi.json', '/api/v1/docs']);
const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch'];

describe('OpenAPI document', () => {
  const databaseUrl = testDatabaseUrl('openapi');
  let gateway: TestGateway;
  let openApi: OpenApiValidator;

  beforeAll(async () => {
    // The production module set only: what users get is what must be documented.
    gateway = await startTestGateway({ databaseUrl });
    openApi = await OpenApiValidator.fetch(gateway.baseUrl);
  });

  afterAll(async () => {
    try {
      await gateway?.close();
    } finally {
      await dropTestDatabase(databaseUrl);
    }
  });

  it('is served as OpenAPI 3.1 with bearer security, the ApiError schema and the error catalog', () => {
    const doc = openApi.document as unknown as Record<string, any>;
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.components.schemas.ApiErrorDto).toBeDefined();
    expect(doc.info.description).toContain('`QUOTE_EXPIRED` | 410');
    expect(doc.info.description).toContain('`tx_request_expired` | 409');
    expect(doc.paths['/api/v1/health'].get.security).toBeUndefined();
  });

  it('documents every route the gateway serves, and serves every documented route', () => {
    const served = new Set(
      gateway.routes
        .all()
        .filter((r) => !['HEAD', 'OPTIONS'].includes(r.method))
        .filter((r) => r.url.startsWith('/api/v1/') && !DOCUMENT_ROUTES.has(r.url) && !r.url.startsWith('/api/v1/docs/'))
        .map((r) => `${r.method} ${r.url.replace(/:([A-Za-z0-9_]+)/g, '{$1}')}`),
    );
    const documented = new Set<string>();
    for (const [path, item] of Object.entries(openApi.document.paths)) {
      for (const method of HTTP_METHODS) {
        if ((item as Record<string, unknown>)[method]) documented.add(`${method.toUpperCase()} ${path}`);
      }
    }
    expect([...served].sort()).toEqual([...documented].sort());
    expect(served.has('GET /api/v1/health')).toBe(true);
  });

  it('documents a 2xx and the shell errors (401, 429, 500) on every authenticated operation', () => {
    for (const [path, item] of Object.entries(openApi.document.paths)) {
      for (const method of HTTP_METHODS) {
        const operation = (item as Record<string, any>)[method];
        if (!operation) continue;
        const statuses = Object.keys(operation.responses);
        expect({ op: `${method} ${path}`, has2xx: statuses.some((s) => s.startsWith('2')) }).toEqual({ op: `${method} ${path}`, has2xx: true });
        if (path !== '/api/v1/health') {
          expect(operation.security).toEqual([{ bearer: [] }]);
          expect(statuses).toEqual(expect.arrayContaining(['401', '429', '500']));
        }
      }
    }
  });

  it('validates real responses against the document (helper for other e2e tests)', async () => {
    const health = await api(gateway.baseUrl).get('/health');
    openApi.assertResponse('GET', '/health', health.status, health.body);

    const firstAuthenticated = Object.keys(openApi.document.paths).find((p) => p !== '/api/v1/health' && !p.includes('{'));
    if (firstAuthenticated) {
      const method = Object.keys(openApi.document.paths[firstAuthenticated]).find((m) => HTTP_METHODS.includes(m))!;
      const path = firstAuthenticated.replace('/api/v1', '');
      const unauthorized = await api(gateway.baseUrl).request(method.toUpperCase(), path, method === 'get' ? {} : { body: {} });
      expect(unauthorized.status).toBe(401);
      openApi.assertResponse(method.toUpperCase(), path, 401, unauthorized.body);
    }

    // And it does fail on a body that breaks the document.
    const broken = openApi.check('GET', '/health', 200, { data: { status: 'ok' }, meta: { requestId: 1 } });
    expect(broken.valid).toBe(false);
    expect(broken.problems.join('\n')).toMatch(/requestId|uptimeSeconds|checks/);
    expect(openApi.check('GET', '/health', 418, {}).valid).toBe(false);
  });

  it('serves the Swagger UI page and its assets without authentication', async () => {
    const page = await fetch(`${gateway.baseUrl}/docs`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    const html = await page.text();
    expect(html).toContain('/api/v1/openapi.json');
    const bundle = await fetch(`${gateway.baseUrl}/docs/swagger-ui-bundle.js`);
    expect(bundle.status).toBe(200);
    expect((await bundle.text()).length).toBeGreaterThan(100_000);
  });
});
