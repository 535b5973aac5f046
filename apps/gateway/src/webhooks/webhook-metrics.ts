import { Counter, Gauge, Histogram } from 'prom-client';
import { metricsRegistry } from '@swapgw/runtime';

const registers = [metricsRegistry()];

/** Attempts by outcome: `delivered` (2xx), `failed` (will be retried), `dead` (retry window over). */
const attempts = new Counter({
  name: 'swapgw_webhook_delivery_attempts_total',
  help: 'Webhook delivery attempts by outcome (delivered: 2xx; failed: non-2xx, timeout or refused target, retried; dead: failed past the retry window)',
  labelNames: ['outcome'] as const,
  registers,
});

const backlog = new Gauge({
  name: 'swapgw_webhook_deliveries_pending',
  help: 'Webhook deliveries not yet delivered nor dead (new and awaiting retry), sampled by the dispatcher',
  registers,
});

const latency = new Histogram({
  name: 'swapgw_webhook_delivery_latency_seconds',
  help: 'From the event being recorded for delivery to its 2xx answer, retries included',
  buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 1800, 3600, 21600, 86400],
  registers,
});

const enqueued = new Counter({
  name: 'swapgw_webhook_deliveries_enqueued_total',
  help: 'Webhook deliveries written by the webhook consumer (one per subscribed webhook per event)',
  registers,
});

export const webhookMetrics = {
  delivered: (latencySeconds: number) => {
    attempts.inc({ outcome: 'delivered' });
    latency.observe(Math.max(0, latencySeconds));
  },
  failed: () => attempts.inc({ outcome: 'failed' }),
  dead: () => attempts.inc({ outcome: 'dead' }),
  enqueued: (count: number) => enqueued.inc(count),
  backlog: (pending: number) => backlog.set(pending),
};
