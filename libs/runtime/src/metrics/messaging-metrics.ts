import { Counter, Gauge, Histogram } from 'prom-client';
import { PartitionLag } from './consumer-lag';
import { metricsRegistry } from './metrics-registry';

const registers = [metricsRegistry()];

/**
 * Type label of a message: the envelope's type when a handler knows it, else `unknown`. Types come
 * from our own code, so the label stays bounded; a type read from an unvalidated message does not.
 */
export const UNKNOWN_MESSAGE_TYPE = 'unknown';

const produced = new Counter({
  name: 'swapgw_kafka_messages_produced_total',
  help: 'Kafka messages produced by this process, by topic and message type',
  labelNames: ['topic', 'type'] as const,
  registers,
});

const consumed = new Counter({
  name: 'swapgw_kafka_messages_consumed_total',
  help: 'Kafka messages consumed by this process, by topic and message type',
  labelNames: ['topic', 'type'] as const,
  registers,
});

export type RequestReplyOutcome = 'ok' | 'error' | 'timeout' | 'unavailable';

const requestReplyDuration = new Histogram({
  name: 'swapgw_kafka_request_duration_seconds',
  help: 'Request-reply latency seen by the requester, by request topic, type and outcome (ok, error reply, timeout, unavailable)',
  labelNames: ['topic', 'type', 'outcome'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  registers,
});

const deadLettered = new Counter({
  name: 'swapgw_kafka_dead_lettered_total',
  help: 'Messages parked on a dead-letter topic, by original topic',
  labelNames: ['topic'] as const,
  registers,
});

const outboxBacklog = new Gauge({
  name: 'swapgw_outbox_unpublished_messages',
  help: 'Outbox rows not yet published to Kafka, sampled by the outbox relay, by schema',
  labelNames: ['schema'] as const,
  registers,
});

const consumerLag = new Gauge({
  name: 'swapgw_kafka_consumer_lag_messages',
  help: "Messages not yet consumed by the service's consumer group, per topic and partition (group-wide: aggregate instances with max, not sum)",
  labelNames: ['group', 'topic', 'partition'] as const,
  registers,
});

const lagSeries = new Map<string, Set<string>>();

export const messagingMetrics = {
  produced(topic: string, type: string | undefined, count = 1): void {
    produced.inc({ topic, type: type || UNKNOWN_MESSAGE_TYPE }, count);
  },
  consumed(topic: string, type: string | undefined): void {
    consumed.inc({ topic, type: type || UNKNOWN_MESSAGE_TYPE });
  },
  requestReply(topic: string, type: string, outcome: RequestReplyOutcome, durationSeconds: number): void {
    requestReplyDuration.observe({ topic, type, outcome }, Math.max(0, durationSeconds));
  },
  deadLettered(originalTopic: string): void {
    deadLettered.inc({ topic: originalTopic });
  },
  outboxBacklog(schema: string, unpublished: number): void {
    outboxBacklog.set({ schema }, unpublished);
  },
  /**
   * Replaces the group's lag series with this sample: partitions the group no longer has offsets
   * for (a topic deleted, a group reset) disappear instead of showing their last value forever.
   */
  consumerLag(group: string, lags: PartitionLag[]): void {
    const current = new Set(lags.map((l) => `${l.topic}\u0000${l.partition}`));
    for (const key of lagSeries.get(group) ?? []) {
      if (current.has(key)) continue;
      const [topic, partition] = key.split('\u0000');
      consumerLag.remove({ group, topic, partition });
    }
    for (const l of lags) consumerLag.set({ group, topic: l.topic, partition: String(l.partition) }, l.lag);
    lagSeries.set(group, current);
  },
};
