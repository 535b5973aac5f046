import { metricsRegistry } from '@swapgw/runtime';
import { Gauge } from 'prom-client';
import type { ServiceLiveness } from '@swapgw/messaging';

type LivenessSource = () => Record<string, ServiceLiveness>;

let source: LivenessSource | undefined;

// Read at scrape time from what this instance hears on `service.heartbeats` (what
// /api/v1/health's checks.services shows): nothing is sampled, so a scrape always sees the present.
// Label `target`, not `service`: every series already has `service` (the process that serves it).
new Gauge({
  name: 'swapgw_kafka_service_up',
  help: '1 while an instance of the Kafka service `target` was heard on service.heartbeats within SERVICE_HEARTBEAT_TIMEOUT_MS, 0 when none was (checks.services of /api/v1/health); absent while this gateway instance has not listened that long (unknown). Each gateway instance reports: aggregate with max',
  labelNames: ['target'] as const,
  registers: [metricsRegistry()],
  collect() {
    this.reset();
    for (const [target, liveness] of Object.entries(source?.() ?? {})) {
      if (liveness !== 'unknown') this.set({ target }, liveness === 'up' ? 1 : 0);
    }
  },
});

export const serviceLivenessMetrics = {
  /** Where the gauge reads the services' liveness from (the gateway's ServiceHeartbeats). */
  readFrom(statuses: LivenessSource | undefined): void {
    source = statuses;
  },
};
