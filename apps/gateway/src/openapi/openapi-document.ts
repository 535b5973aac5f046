import fs from 'node:fs';
import path from 'node:path';
import type { INestApplication } from '@nestjs/common';
import type { FastifyInstance } from 'fastify';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { ErrorCatalog } from '@swapgw/contracts';
import type { GatewayConfig } from '../config/gateway.config';
import { ApiErrorDto, ApiMetaDto, ERROR_DESCRIPTIONS } from './api-responses';

export const OPENAPI_JSON_PATH = 'api/v1/openapi.json';
export const DOCS_PATH = 'api/v1/docs';
export const PUBLIC_OPERATION = 'x-public';

type Operation = {
  responses?: Record<string, unknown>;
  security?: Array<Record<string, string[]>>;
  [PUBLIC_OPERATION]?: boolean;
};

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;

function errorCatalogMarkdown(): string {
  const rows = Object.entries(ErrorCatalog)
    .map(([code, { status, description }]) => `| \`${code}\` | ${status} | ${description} |`)
    .join('\n');
  return `| code | HTTP | meaning |\n|---|---|---|\n${rows}`;
}

function description(config: GatewayConfig): string {
  return [
    'Non-custodial cross-chain swap gateway. Every success body is `{ data, meta: { requestId, timestamp } }`;',
    'every error body is the ApiError `{ error: { code, message, details? }, meta }`.',
    '',
    '**Authentication**: `Authorization: Bearer <API key>` on every route except `GET /health`.',
    `**Rate limit**: ${config.RATE_LIMIT_REQUESTS} requests per ${config.RATE_LIMIT_WINDOW_SECONDS} s per API key`,
    '(all gateway instances together: each counts in memory and reconciles through PostgreSQL every',
    `${config.RATE_LIMIT_SYNC_INTERVAL_MS} ms, so n instances may together accept up to (n − 1) × what one instance accepts in`,
    'one sync interval above the limit; one instance is exact); `RateLimit-Limit`, `RateLimit-Remaining`, `RateLimit-Reset` on every',
    'authenticated response; 429 `RATE_LIMITED` with `Retry-After` when exceeded.',
    `**Body**: \`application/json\` only (415 otherwise), at most ${config.BODY_LIMIT_BYTES} bytes (413).`,
    '**Idempotency-Key**: at most 200 characters of `A-Za-z0-9._:-`; records are kept at least',
    `${config.IDEMPOTENCY_TTL_HOURS} h; a replay carries \`Idempotent-Replayed: true\`.`,
    '**X-Request-Id**: a well-formed incoming value (1-128 of `A-Za-z0-9._:-`) is echoed, else one is generated.',
    '',
    '### Error codes',
    '',
    errorCatalogMarkdown(),
  ].join('\n');
}

/**
 * Builds the OpenAPI 3.1 document from the controllers' decorators, then adds what applies to
 * every operation: bearer security (except public routes) and the 401 / 429 / 500 ApiError
 * responses that the shell itself can answer.
 */
export function buildOpenApiDocument(app: INestApplication, config: GatewayConfig): OpenAPIObject {
  const builder = new DocumentBuilder()
    .setOpenAPIVersion('3.1.0')
    .setTitle('Cross-Chain Swap Gateway API')
    .setVersion('1')
    .setDescription(description(config))
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'API key `sgw_...`' }, 'bearer')
    .build();
  const document = SwaggerModule.createDocument(app, builder, { extraModels: [ApiErrorDto, ApiMetaDto] });
  for (const item of Object.values(document.paths)) {
    for (const method of HTTP_METHODS) {
      const operation = (item as Record<string, Operation | undefined>)[method];
      if (!operation) continue;
      operation.responses ??= {};
      const isPublic = operation[PUBLIC_OPERATION] === true;
      delete operation[PUBLIC_OPERATION];
      const shellErrors = isPublic ? [500] : [401, 429, 500];
      if (!isPublic) operation.security = [{ bearer: [] }];
      for (const status of shellErrors) {
        operation.responses[String(status)] ??= {
          description: ERROR_DESCRIPTIONS[status],
          content: { 'application/json': { schema: { $ref: '#/components/schemas/ApiErrorDto' } } },
        };
      }
    }
  }
  return document;
}

const SWAGGER_UI_ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'application/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'application/javascript; charset=utf-8',
};

function docsPage(): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Swap Gateway API</title><link rel="stylesheet" href="/${DOCS_PATH}/swagger-ui.css"></head>
<body><div id="swagger-ui"></div>
<script src="/${DOCS_PATH}/swagger-ui-bundle.js"></script>
<script src="/${DOCS_PATH}/swagger-ui-standalone-preset.js"></script>
<script>window.ui = SwaggerUIBundle({ url: '/${OPENAPI_JSON_PATH}', dom_id: '#swagger-ui', presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset], layout: 'StandaloneLayout' });</script>
</body></html>`;
}

/**
 * Serves the document at /api/v1/openapi.json and Swagger UI at /api/v1/docs. The UI's three
 * assets are read from swagger-ui-dist and served by plain routes: SwaggerModule's own UI needs
 * @fastify/static, whose dependencies are ES modules that jest cannot load.
 */
export function setupOpenApi(app: INestApplication, config: GatewayConfig, fastify: FastifyInstance): OpenAPIObject {
  const document = buildOpenApiDocument(app, config);
  const json = JSON.stringify(document);
  fastify.get(`/${OPENAPI_JSON_PATH}`, (_request, reply) => {
    void reply.type('application/json; charset=utf-8').send(json);
  });
  const page = docsPage();
  fastify.get(`/${DOCS_PATH}`, (_request, reply) => {
    void reply.type('text/html; charset=utf-8').send(page);
  });
  const assetDir = path.dirname(require.resolve('swagger-ui-dist/package.json'));
  for (const [file, type] of Object.entries(SWAGGER_UI_ASSETS)) {
    const content = fs.readFileSync(path.join(assetDir, file));
    fastify.get(`/${DOCS_PATH}/${file}`, (_request, reply) => {
      void reply.type(type).header('cache-control', 'public, max-age=3600').send(content);
    });
  }
  return document;
}
