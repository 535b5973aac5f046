import type { FastifyInstance } from 'fastify';
import { CodedError, ErrorCodes } from '@swapgw/contracts';
import { newRequestContext, runWithRequestContext } from '@swapgw/runtime';
import './gateway-request';
import { RouteTable } from './route-table';

export const REQUEST_ID_HEADER = 'x-request-id';
export const TRACEPARENT_HEADER = 'traceparent';

/**
 * What the gateway installs on the raw Fastify instance before Nest registers its routes:
 * - a route table (for 405 + Allow and the OpenAPI coverage test);
 * - the request context: a well-formed incoming X-Request-Id is echoed, otherwise a new one is
 *   made; the traceparent is a child span of the incoming one or a new trace. It is returned in
 *   the response headers and entered into AsyncLocalStorage so that logs and Kafka headers carry it;
 * - JSON as the only request body type (anything else is 415), parsed by us so that a malformed
 *   body is a MALFORMED_JSON CodedError and not a generic 400.
 */
export function installHttpShell(fastify: FastifyInstance, routes: RouteTable): void {
  fastify.addHook('onRoute', (route) => routes.add(route.method, route.url));

  fastify.decorateRequest('requestContext', undefined as never);
  fastify.addHook('onRequest', (request, reply, done) => {
    const context = newRequestContext({
      requestId: request.headers[REQUEST_ID_HEADER],
      traceparent: request.headers[TRACEPARENT_HEADER],
    });
    request.requestContext = context;
    reply.header('X-Request-Id', context.requestId);
    reply.header('traceparent', context.traceparent);
    runWithRequestContext(context, done);
  });
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
        new CodedError(ErrorCodes.MALFORMED_JSON, 'The request body is not valid JSON', { reason: error.message }),
        undefined,
      );
    });
  });
}
