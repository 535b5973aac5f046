import fs from 'node:fs';
import path from 'node:path';
import type { Type } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { ErrorCatalog, ErrorCode } from '@swapgw/contracts';
import { api } from '@swapgw/testing';
import { ERROR_CODES_EXTENSION } from '../src/openapi/error-responses';
import { operationIdOf } from '../src/openapi/openapi-document';
import { OpenApiValidator } from './support/openapi-validator';
import { dropTestDatabase, startTestGateway, TestGateway, testDatabaseUrl } from './support/test-gateway';

const DOCUMENT_ROUTES = new Set(['/api/v1/openapi.json', '/api/v1/docs']);
const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch'];
const COMMITTED_FILE = path.join(__dirname, '..', 'openapi.json');

type Json = Record<string, any>;

/** Every operation of the document with its method and path template. */
function operationsOf(document: Json): Array<{ method: string; path: string; operation: Json }> {
  return Object.entries(document.paths as Json).flatMap(([path, item]) =>
    HTTP_METHODS.filter((method) => item[method]).map((method) => ({
      method,
      path,
      operation: item[method] as Json,
    })),
  );
}

/** The codes each handler declares with @ApiErrorResponses(...codes), by operation id (getQuote, ...). */
function declaredCodesByOperation(gateway: TestGateway): Map<string, ErrorCode[]> {
  const declared = new Map<string, ErrorCode[]>();
  for (const wrapper of gateway.app.get(DiscoveryService).getControllers()) {
    const controller = wrapper.metatype as Type<unknown> | null;
    if (!controller) continue;
    for (const method of Object.getOwnPropertyNames(controller.prototype)) {
      const handler = (controller.prototype as Record<string, unknown>)[method];
      if (typeof handler !== 'function') continue;
      const extensions = Reflect.getMetadata('swagger/apiExtension', handler) as
        Record<string, unknown> | undefined;
      const codes = extensions?.[ERROR_CODES_EXTENSION] as ErrorCode[] | undefined;
      if (codes) declared.set(operationIdOf(controller, method), codes);
    }
  }
  return declared;
}

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

  it('is the committed apps/gateway/openapi.json (regenerate with `npm run openapi`)', () => {
    const committed = JSON.parse(fs.readFileSync(COMMITTED_FILE, 'utf8')) as unknown;
    expect(openApi.document).toEqual(committed);
  });

  it('is served as OpenAPI 3.1 with bearer security (no JWT), the ApiError schema and the error catalog', () => {
    const doc = openApi.document as unknown as Json;
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.components.securitySchemes.bearer.bearerFormat).toBeUndefined();
    expect(doc.components.schemas.ApiErrorDto).toBeDefined();
    expect(doc.info.description).toContain('`QUOTE_EXPIRED` | 410');
    expect(doc.info.description).toContain('`tx_request_expired` | 409');
    expect(doc.paths['/health'].get.security).toEqual([]);
    expect(JSON.stringify(doc)).not.toContain('"nullable"');
  });

  it('has one server, /api/v1, relative to which every documented path is served', async () => {
    const doc = openApi.document as unknown as Json;
    expect(doc.servers.map((server: Json) => server.url)).toEqual(['/api/v1']);
    // What a generated client does with the documented base URL: base + path.
    const base = new URL(doc.servers[0].url, gateway.baseUrl).toString().replace(/\/+$/, '');
    for (const { method, path } of operationsOf(doc)) {
      expect(path.startsWith('/api/v1')).toBe(false);
      if (method !== 'get' || path.includes('{')) continue;
      const answer = await fetch(`${base}${path}`);
      await answer.body?.cancel();
      // Without a key: 401 (or 200 for /health), never the 404 of a doubled /api/v1/api/v1.
      expect({ path, routed: ![404, 405].includes(answer.status) }).toEqual({ path, routed: true });
    }
  });

  it('documents every route the gateway serves, and serves every documented route', () => {
    const served = new Set(
      gateway.routes
        .all()
        .filter((r) => !['HEAD', 'OPTIONS'].includes(r.method))
        .filter(
          (r) =>
            r.url.startsWith('/api/v1/') && !DOCUMENT_ROUTES.has(r.url) && !r.url.startsWith('/api/v1/docs/'),
        )
        .map((r) => `${r.method} ${r.url.slice('/api/v1'.length).replace(/:([A-Za-z0-9_]+)/g, '{$1}')}`),
    );
    const documented = new Set(
      operationsOf(openApi.document as unknown as Json).map(
        ({ method, path }) => `${method.toUpperCase()} ${path}`,
      ),
    );
    expect([...served].sort()).toEqual([...documented].sort());
    expect(served.has('GET /health')).toBe(true);
  });

  it('documents a 2xx in the { data, meta } envelope as served, and the shell errors (401, 429, 500) on every authenticated operation', () => {
    for (const { method, path, operation } of operationsOf(openApi.document as unknown as Json)) {
      const op = `${method} ${path}`;
      const statuses = Object.keys(operation.responses);
      expect({ op, has2xx: statuses.some((s) => s.startsWith('2')) }).toEqual({ op, has2xx: true });
      for (const status of statuses.filter((s) => s.startsWith('2'))) {
        const schema = operation.responses[status].content?.['application/json']?.schema;
        if (!schema) continue; // a stream (text/event-stream) or an empty answer
        expect({ op, status, required: schema.required }).toEqual({
          op,
          status,
          required: expect.arrayContaining(['data', 'meta']),
        });
      }
      if (path !== '/health') {
        expect(operation.security).toEqual([{ bearer: [] }]);
        expect({ op, statuses }).toEqual({ op, statuses: expect.arrayContaining(['401', '429', '500']) });
      }
    }
  });

  it('lists every error code each route declares under the status the catalog gives it, with the ApiError body and response headers', () => {
    const declared = declaredCodesByOperation(gateway);
    expect(declared.size).toBeGreaterThan(5);
    const operations = new Map(
      operationsOf(openApi.document as unknown as Json).map((entry) => [
        entry.operation.operationId as string,
        entry,
      ]),
    );
    for (const [operationId, codes] of declared) {
      const entry = operations.get(operationId);
      expect({ operationId, documented: entry !== undefined }).toEqual({ operationId, documented: true });
      const listed = entry!.operation[ERROR_CODES_EXTENSION] as string[];
      for (const code of codes) {
        const status = String(ErrorCatalog[code].status);
        const response = entry!.operation.responses[status];
        const schema = response?.content?.['application/json']?.schema;
        const codeEnum = schema?.allOf?.[1]?.properties?.error?.properties?.code?.enum as
          string[] | undefined;
        expect({
          operationId,
          code,
          status,
          listed: listed.includes(code),
          inResponse: codeEnum?.includes(code),
        }).toEqual({
          operationId,
          code,
          status,
          listed: true,
          inResponse: true,
        });
        expect(schema.allOf[0]).toEqual({ $ref: '#/components/schemas/ApiErrorDto' });
        expect(response.headers['X-Request-Id']).toEqual({ $ref: '#/components/headers/X-Request-Id' });
      }
    }
  });

  it('validates real responses against the document (helper for other e2e tests)', async () => {
    const health = await api(gateway.baseUrl).get('/health');
    openApi.assertResponse('GET', '/health', health.status, health.body);

    const firstAuthenticated = Object.keys(openApi.document.paths).find(
      (p) => p !== '/health' && !p.includes('{'),
    );
    if (firstAuthenticated) {
      const method = Object.keys(openApi.document.paths[firstAuthenticated]).find((m) =>
        HTTP_METHODS.includes(m),
      )!;
      const path = firstAuthenticated;
      const unauthorized = await api(gateway.baseUrl).request(
        method.toUpperCase(),
        path,
        method === 'get' ? {} : { body: {} },
      );
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
