import { Histogram } from 'prom-client';
import { metricsRegistry } from './metrics-registry';

/**
 * How long a statement waited for one of its pool's connections, by lane (`command`, `request`,
 * `other`: see withConnectionPriority in libs/persistence). Zero when one was free. Under a burst
 * it says which statements queue for the database, and whether a lane starves behind another.
 */
const connectionWait = new Histogram({
  name: 'swapgw_db_connection_wait_seconds',
  help: 'Wait for a pooled database connection, by connection lane (command, request, other)',
  labelNames: ['lane'] as const,
  buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  registers: [metricsRegistry()],
});

export function observeConnectionWait(lane: string, seconds: number): void {
  connectionWait.observe({ lane }, seconds);
}
