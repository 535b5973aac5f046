import http from 'node:http';
import type { FastifyInstance } from 'fastify';
import { CodedError, ErrorCodes } from '@swapgw/contracts';
import { isTracing, runWithRequestContext } from '@swapgw/runtime';
import type { EdgeReads } from './edge-reads';
import './gateway-request';
import { startRequestTrace } from './request-trace';
import { RouteTable } from './route-table';

/**
 * What the gateway installs on the raw Fastify instance before Nest registers its routes:
 * - a route table (for 405 + Allow and the OpenAPI coverage test);
 * - the request context: a well-formed incoming X-Request-Id is echoed, otherwise a new one is
 *   made; the traceparent is a child span of the incoming one or a new trace (with tracing on, an
 *   OTel server span ended when the response is sent). It is returned in the response headers and
 *   entered into AsyncLocalStorage so that logs and Kafka headers carry it;
 * - what the edge of cached reads (EdgeReads, in front of Fastify: see edgeServerFactory) decided
 *   for a request it counted and left to the full path;
 * - JSON as the only request body type (anything else is 415), parsed by us so that a malformed
 *   body is a MALFORMED_JSON CodedError and not a generic 400.
 */
export function installHttpShell(fastify: FastifyInstance, routes: RouteTable, edge?: EdgeReads): void {
  fastify.addHook('onRoute', (route) => routes.add(route.method, route.url));

  fastify.decorateRequest('requestContext', undefined as never);
  fastify.decorateRequest('endTrace', undefined as never);
  fastify.addHook('onRequest', (request, reply, done) => {
    const traced = startRequestTrace(request.method, request.routeOptions.url, request.headers);
    const context = traced.context;
    request.requestContext = context;
    request.endTrace = traced.end;
    reply.header('X-Request-Id', context.requestId);
    reply.header('traceparent', context.traceparent);
    const handover = edge?.takeHandover(request.raw);
    if (handover) {
      request.owner = handover.owner;
      request.apiKeyId = handover.apiKeyId;
      request.rateLimitDecision = handover.rateLimitDecision;
    }
    runWithRequestContext(context, done);
  });
  // Only with tracing on: no hook on every response otherwise.
  if (isTracing()) {
    fastify.addHook('onResponse', (request, reply, done) => {
      request.endTrace?.(reply.statusCode >= 500 ? new Error(`HTTP ${reply.statusCode}`) : undefined, {
        'http.response.status_code': reply.statusCode,
      });
      done();
    });
  }
  // Body parsing runs on stream events outside the context entered above: enter it again for
  // the guards, pipes and handler that follow.
  fastify.addHook('preValidation', (request, _reply, done) => {
    runWithRequestContext(request.requestContext, done);
  });

  fastify.removeContentTypeParser('text/plain');
  // Fastify's own parser refuses __proto__ / constructor.prototype keys (prototype poisoning).
  const parseJson = fastify.getDefaultJsonParser('error', 'error');
  fastify.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    // An empty body is "no body" (e.g. DELETE with Content-Type set by a client library).
    if (String(body).trim() === '') return done(null, undefined);
    void parseJson(request, String(body), (error, value) => {
      if (!error) return done(null, value);
      done(
        new CodedError(ErrorCodes.MALFORMED_JSON, 'The request body is not valid JSON', {
          reason: error.message,
        }),
        undefined,
      );
    });
  });
}

/** The options of Fastify's own HTTP/1 server that a server factory must apply (Fastify's defaults included). */
interface HttpServerOptions {
  http?: http.ServerOptions | null;
  keepAliveTimeout?: number;
  requestTimeout?: number;
  connectionTimeout?: number;
  maxRequestsPerSocket?: number;
}

/**
 * Fastify's `serverFactory`: the HTTP/1 server Fastify would make, with the edge of cached reads
 * in front of Fastify's handler. A request the edge answers never reaches Fastify; every other one
 * goes on unchanged. `edge()` is asked per request: the edge is a Nest provider, made after the
 * adapter that needs this factory.
 */
export function edgeServerFactory(edge: () => EdgeReads | undefined) {
  return (handler: http.RequestListener, options: HttpServerOptions): http.Server => {
    const server = http.createServer(options.http ?? {}, (request, response) => {
      if (edge()?.serve(request, response)) return;
      handler(request, response);
    });
    // As Fastify sets up the server it makes itself (lib/server.js, getServerInstance).
    if (options.keepAliveTimeout !== undefined) server.keepAliveTimeout = options.keepAliveTimeout;
    if (options.requestTimeout !== undefined) server.requestTimeout = options.requestTimeout;
    server.setTimeout(options.connectionTimeout ?? 0);
    const { maxRequestsPerSocket } = options;
    if (maxRequestsPerSocket !== undefined && maxRequestsPerSocket > 0)
      server.maxRequestsPerSocket = maxRequestsPerSocket;
    return server;
  };
}
