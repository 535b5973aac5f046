import fs from 'node:fs';
import path from 'node:path';
import type { INestApplication, Type } from '@nestjs/common';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { DiscoveryModule, DiscoveryService, InitializeOnPreviewAllowlist } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { ErrorCatalog } from '@swapgw/contracts';
import { GatewayConfig } from '../config/gateway.config';
import { ApiErrorDto, ApiMetaDto } from './api-responses';
import { deriveOperationErrors, OperationLike, traitsOf } from './error-responses';
import { describeRequestDefaults, toJsonSchema2020 } from './json-schema-2020';
import { RESPONSE_HEADERS, responseHeadersFor } from './response-headers';
import { applyRule, applyRulesToObjectSchema, SchemaLike, validationRulesOf } from './validation-constraints';
import { addWebhookEvents } from '../webhooks/webhook-openapi';

/** Where the API lives: the document's `servers` entry, relative to the host that serves it. */
export const API_BASE_PATH = '/api/v1';
export const OPENAPI_JSON_PATH = 'api/v1/openapi.json';
export const DOCS_PATH = 'api/v1/docs';

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;

// The document lists the app's controllers through DiscoveryService: the app imports DiscoveryModule
// (GatewayCoreModule does), which Nest then instantiates also in the preview mode of `npm run openapi`.
InitializeOnPreviewAllowlist.add(DiscoveryModule);

/** The controller classes of the app. */
function controllerClasses(app: INestApplication): Array<Type<unknown>> {
  return app
    .get(DiscoveryService)
    .getControllers()
    .map((wrapper) => wrapper.metatype as Type<unknown> | null)
    .filter((controller): controller is Type<unknown> => !!controller);
}

function errorCatalogMarkdown(): string {
  const rows = Object.entries(ErrorCatalog)
    .map(([code, { status, description }]) => `| \`${code}\` | ${status} | ${description} |`)
    .join('\n');
  return `| code | HTTP | meaning |\n|---|---|---|\n${rows}`;
}

/**
 * The description states the configuration's defaults, not the running values: the document is
 * also a file in the repository that must equal what every deployment serves. The values in force
 * are in the RateLimit-* headers.
 */
function description(): string {
  const defaults = new GatewayConfig();
  return [
    'Non-custodial cross-chain swap gateway. Every success body is `{ data, meta: { requestId, timestamp } }`;',
    'every error body is the ApiError `{ error: { code, message, details? }, meta }`.',
    '',
    `**Base URL**: the paths below are relative to the server URL \`${API_BASE_PATH}\` (e.g. \`http://127.0.0.1:3000${API_BASE_PATH}\`).`,
    '**Authentication**: `Authorization: Bearer <API key>` (an opaque `sgw_...` key) on every route except `GET /health`.',
    `**Rate limit**: per API key, RATE_LIMIT_REQUESTS requests (default ${defaults.RATE_LIMIT_REQUESTS}) per RATE_LIMIT_WINDOW_SECONDS`,
    `(default ${defaults.RATE_LIMIT_WINDOW_SECONDS} s), all gateway instances together: each counts in memory and reconciles through PostgreSQL`,
    `every RATE_LIMIT_SYNC_INTERVAL_MS (default ${defaults.RATE_LIMIT_SYNC_INTERVAL_MS} ms), so n instances may together accept up to (n − 1) × what one`,
    'instance accepts in one sync interval above the limit; one instance is exact. `RateLimit-Limit`, `RateLimit-Remaining`, `RateLimit-Reset`',
    'on every authenticated response; 429 `RATE_LIMITED` with `Retry-After` when exceeded.',
    `**Body**: \`application/json\` only (415 otherwise), at most BODY_LIMIT_BYTES (default ${defaults.BODY_LIMIT_BYTES}) bytes (413).`,
    '**Idempotency-Key**: at most 200 characters of `A-Za-z0-9._:-`; records are kept at least',
    `IDEMPOTENCY_TTL_HOURS (default ${defaults.IDEMPOTENCY_TTL_HOURS} h); a replay carries \`Idempotent-Replayed: true\`.`,
    '**X-Request-Id**: a well-formed incoming value (1-128 of `A-Za-z0-9._:-`) is echoed, else one is generated.',
    '**Error responses**: each operation lists every status it can answer; each status lists its codes (`error.code` is one of them),',
    'and `x-error-codes` on the operation lists them all. Outside any operation: 404 `NOT_FOUND` (unknown path), 405 `METHOD_NOT_ALLOWED`,',
    '400 `MALFORMED_REQUEST` and 431 `HEADERS_TOO_LARGE` (unparseable HTTP).',
    '',
    '### Error codes',
    '',
    errorCatalogMarkdown(),
  ].join('\n');
}

/**
 * The operation id of a handler as the document has it: the `operationId` of its @ApiOperation
 * (every route names one: getQuote, buildSwap, ...), else @nestjs/swagger's `<Controller>_<method>`.
 */
export function operationIdOf(controller: Type<unknown>, method: string): string {
  const handler = (controller.prototype as Record<string, unknown>)[method];
  const operation =
    typeof handler === 'function'
      ? (Reflect.getMetadata('swagger/apiOperation', handler) as { operationId?: string } | undefined)
      : undefined;
  return operation?.operationId ?? `${controller.name}_${method}`;
}

/** The DTO class of each `@Query()` / `@Param()` argument of each handler, by operation id. */
function parameterClassesByOperation(
  app: INestApplication,
): Map<string, Array<{ in: 'query' | 'path'; target: Type<unknown> }>> {
  const byOperation = new Map<string, Array<{ in: 'query' | 'path'; target: Type<unknown> }>>();
  for (const controller of controllerClasses(app)) {
    for (const method of Object.getOwnPropertyNames(controller.prototype)) {
      const args = Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, method) as
        Record<string, { index: number; data?: unknown }> | undefined;
      const types = Reflect.getMetadata('design:paramtypes', controller.prototype, method) as
        Array<Type<unknown>> | undefined;
      if (!args || !types) continue;
      const classes: Array<{ in: 'query' | 'path'; target: Type<unknown> }> = [];
      for (const [key, arg] of Object.entries(args)) {
        const kind = Number(key.split(':')[0]);
        const location =
          kind === RouteParamtypes.QUERY ? 'query' : kind === RouteParamtypes.PARAM ? 'path' : undefined;
        const target = types[arg.index];
        // A whole-object argument of a DTO class (not `@Param('id') id: string`).
        if (location && arg.data === undefined && typeof target === 'function' && target !== Object)
          classes.push({ in: location, target });
      }
      if (classes.length > 0) byOperation.set(operationIdOf(controller, method), classes);
    }
  }
  return byOperation;
}

/**
 * Writes the class-validator rules of the DTOs into the document (integer, pattern, lengths,
 * bounds, enums, optionality): into component schemas by class name, and into the query and path
 * parameters @nestjs/swagger flattens out of `@Query()` / `@Param()` DTOs.
 */
function applyValidationRules(
  document: OpenAPIObject,
  app: INestApplication,
  models: Array<Type<unknown>>,
): void {
  const schemas = (document.components?.schemas ?? {}) as Record<string, SchemaLike>;
  const seen = new Set<string>();
  const byOperation = parameterClassesByOperation(app);
  const classes = [...models, ...[...byOperation.values()].flat().map((entry) => entry.target)];
  for (const target of classes) {
    if (seen.has(target.name) || !schemas[target.name]) continue;
    seen.add(target.name);
    applyRulesToObjectSchema(schemas[target.name], validationRulesOf(target));
  }
  for (const item of Object.values(document.paths)) {
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      const entries = operation?.operationId ? byOperation.get(operation.operationId) : undefined;
      if (!operation || !entries) continue;
      for (const entry of entries) {
        const rules = validationRulesOf(entry.target);
        for (const parameter of operation.parameters ?? []) {
          if (
            !('in' in parameter) ||
            parameter.in !== entry.in ||
            !parameter.schema ||
            '$ref' in parameter.schema
          )
            continue;
          for (const rule of rules.get(parameter.name) ?? []) applyRule(parameter.schema as SchemaLike, rule);
        }
      }
    }
  }
}

/**
 * What the decorators leave to be said, for every operation, and OpenAPI 3.1 proper. Pure:
 *  - security: bearer, except on @PublicRoute() operations (`security: []`);
 *  - error responses derived from the codes each route declares plus the shell's (error-responses.ts);
 *  - the response headers the gateway sets, as components;
 *  - `nullable` → `type: [T, 'null']`; request defaults out of client generators' way;
 *  - paths relative to the one server, `/api/v1`.
 */
export function finalizeDocument(document: OpenAPIObject, basePath = API_BASE_PATH): OpenAPIObject {
  const paths: OpenAPIObject['paths'] = {};
  for (const [template, item] of Object.entries(document.paths)) {
    for (const method of HTTP_METHODS) {
      const operation = item[method] as (OperationLike & { security?: unknown }) | undefined;
      if (!operation) continue;
      const traits = traitsOf(operation);
      // Public routes say so explicitly (an empty list), rather than leave it to a reader's default.
      operation.security = traits.authenticated ? [{ bearer: [] }] : [];
      deriveOperationErrors(operation);
      for (const [status, response] of Object.entries(
        operation.responses as Record<string, { headers?: Record<string, unknown> }>,
      )) {
        response.headers = { ...responseHeadersFor(Number(status), traits), ...response.headers };
      }
    }
    const relative = template.startsWith(`${basePath}/`) ? template.slice(basePath.length) : template;
    paths[relative] = item;
  }
  const converted = toJsonSchema2020({ ...document, paths }) as OpenAPIObject;
  describeRequestDefaults(converted as Parameters<typeof describeRequestDefaults>[0]);
  converted.security = [{ bearer: [] }];
  converted.servers = [
    { url: basePath, description: 'This gateway (relative to the host serving this document)' },
  ];
  converted.components = {
    ...converted.components,
    headers: { ...RESPONSE_HEADERS, ...converted.components?.headers },
  };
  return converted;
}

/**
 * The document's `info.version`, semver (major 1 = the `/api/v1` paths). `@swapgw/sdk`, generated
 * from this document, is published under the same version (libs/sdk/package.json; a test compares).
 */
export const API_VERSION = '1.0.0';

/**
 * Builds the OpenAPI 3.1 document from the controllers' decorators and DTOs. Needs the module
 * graph only: `NestFactory.create(..., { preview: true })` is enough (the `npm run openapi` CLI).
 */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const builder = new DocumentBuilder()
    .setOpenAPIVersion('3.1.0')
    .setTitle('Cross-Chain Swap Gateway API')
    .setVersion(API_VERSION)
    .setDescription(description())
    // An opaque API key, not a JWT: no bearerFormat that would suggest otherwise.
    .addBearerAuth(
      {
        type: 'http',
        scheme: 'bearer',
        description: 'API key: `Authorization: Bearer sgw_<key>` (opaque; `npm run keys` creates one)',
      },
      'bearer',
    )
    .build();
  // addBearerAuth fills in bearerFormat "JWT"; the key is not one.
  delete (builder.components?.securitySchemes?.bearer as { bearerFormat?: string } | undefined)?.bearerFormat;
  const extraModels = [ApiErrorDto, ApiMetaDto];
  const document = SwaggerModule.createDocument(app, builder, { extraModels });
  const models = modelClasses(app);
  applyValidationRules(document, app, models);
  return addWebhookEvents(finalizeDocument(document));
}

/** Every class the swagger explorer may have turned into a component schema: DTOs of handlers and nested DTOs. */
function modelClasses(app: INestApplication): Array<Type<unknown>> {
  const found = new Set<Type<unknown>>();
  const visit = (target: unknown): void => {
    if (typeof target !== 'function' || found.has(target as Type<unknown>)) return;
    found.add(target as Type<unknown>);
    const properties =
      (Reflect.getMetadata('swagger/apiModelPropertiesArray', (target as Type<unknown>).prototype) as
        string[] | undefined) ?? [];
    for (const key of properties) {
      const name = key.replace(/^:/, '');
      const meta = Reflect.getMetadata(
        'swagger/apiModelProperties',
        (target as Type<unknown>).prototype,
        name,
      ) as { type?: unknown } | undefined;
      const type =
        typeof meta?.type === 'function' && !(meta.type as { prototype?: unknown }).prototype
          ? (meta.type as () => unknown)()
          : meta?.type;
      visit(Array.isArray(type) ? type[0] : type);
    }
  };
  for (const controller of controllerClasses(app)) {
    for (const method of Object.getOwnPropertyNames(controller.prototype)) {
      const types = Reflect.getMetadata('design:paramtypes', controller.prototype, method) as
        unknown[] | undefined;
      for (const type of types ?? []) visit(type);
    }
  }
  return [...found];
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
export function setupOpenApi(app: INestApplication, fastify: FastifyInstance): OpenAPIObject {
  const document = buildOpenApiDocument(app);
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
