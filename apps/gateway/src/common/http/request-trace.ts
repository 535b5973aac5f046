import type { IncomingHttpHeaders } from 'node:http';
import { SpanKinds, startTrace, TracedContext } from '@swapgw/runtime';

export const REQUEST_ID_HEADER = 'x-request-id';
export const TRACEPARENT_HEADER = 'traceparent';

/**
 * A request's context: a well-formed incoming X-Request-Id is kept, otherwise a new one is made;
 * the traceparent is a child span of the incoming one or a new trace (with tracing on, an OTel
 * server span named after the route, ended by the caller once the response is sent).
 */
export const startRequestTrace = (
  method: string,
  route: string | undefined,
  headers: IncomingHttpHeaders,
): TracedContext =>
  startTrace(
    SpanKinds.server,
    { requestId: headers[REQUEST_ID_HEADER], traceparent: headers[TRACEPARENT_HEADER] },
    () => ({
      name: `${method} ${route ?? 'unmatched'}`,
      attributes: { 'http.request.method': method, 'http.route': route ?? 'unmatched' },
    }),
  );
