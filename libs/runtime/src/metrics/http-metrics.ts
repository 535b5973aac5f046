import { Counter, Histogram } from 'prom-client';
import { metricsRegistry } from './metrics-registry';

export const HTTP_DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

const httpRequestDuration = new Histogram({
  name: 'swapgw_http_request_duration_seconds',
  help: 'HTTP request duration by method, route template and status code',
  labelNames: ['method', 'route', 'status_code'] as const,
  buckets: HTTP_DURATION_BUCKETS,
  registers: [metricsRegistry()],
});

/** Route label of a request that matched no route: raw URLs would make the label unbounded. */
export const UNMATCHED_ROUTE = 'unmatched';

const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

export interface HttpObservation {
  method: string;
  /** Route template (`/api/v1/swap/:swapId/signing`), never the raw URL; undefined when no route matched. */
  routeTemplate: string | undefined;
  statusCode: number;
  durationSeconds: number;
}

/** Label values of one request, bounded: known methods, route templates, status codes. */
export function httpLabelsOf(observation: Omit<HttpObservation, 'durationSeconds'>): {
  method: string;
  route: string;
  status_code: string;
} {
  const method = observation.method.toUpperCase();
  return {
    method: KNOWN_METHODS.has(method) ? method : 'OTHER',
    route: observation.routeTemplate || UNMATCHED_ROUTE,
    status_code: String(observation.statusCode),
  };
}

export function observeHttpRequest(observation: HttpObservation): void {
  httpRequestDuration.observe(httpLabelsOf(observation), Math.max(0, observation.durationSeconds));
}

const edgeAnswers = new Counter({
  name: 'swapgw_http_edge_answers_total',
  help: 'GET requests answered from an answer the gateway held, before the framework (also in the duration histogram)',
  labelNames: ['route'] as const,
  registers: [metricsRegistry()],
});

export function countEdgeAnswer(routeTemplate: string | undefined): void {
  edgeAnswers.inc({ route: routeTemplate || UNMATCHED_ROUTE });
}
