import { collectDefaultMetrics, Registry } from 'prom-client';

/**
 * The one metrics registry of this process. A registry of our own rather than prom-client's global
 * one, so that a library registering its own metrics globally cannot collide with ours.
 */
const registry = new Registry();
let defaultMetricsCollected = false;

export const metricsRegistry = (): Registry => registry;

/**
 * Names the process (`service` label on every series) and starts the default process metrics
 * (CPU, memory, event loop lag, GC, handles). Called once at boot; calling again only renames.
 */
export function initProcessMetrics(service: string): Registry {
  registry.setDefaultLabels({ service });
  if (!defaultMetricsCollected) {
    collectDefaultMetrics({ register: registry });
    defaultMetricsCollected = true;
  }
  return registry;
}

export interface MetricsExposition {
  contentType: string;
  body: string;
}

/** The registry in Prometheus text format, as served on /metrics. */
export async function renderMetrics(): Promise<MetricsExposition> {
  return { contentType: registry.contentType, body: await registry.metrics() };
}
