/**
 * Every Kafka topic of the suite, declared once. Apps create these idempotently at start
 * (see `ensureTopics` in @swapgw/messaging) and `deploy/kafka/topics.yaml` is generated from
 * this list (`npm run topics:manifest`).
 *
 * Request-reply topics carry a `.reply` twin: reply topics get at least as many partitions as
 * gateway instances we expect to run, because each requester instance owns reply partitions.
 */
export const Topics = {
  catalogRequests: 'catalog.requests',
  quoteRequests: 'quote.requests',
  /**
   * A build's checks of a route it is about to execute (quote.reprice, quote.preflight): answered by
   * quote-service in a consumer group of its own (`quote-service-checks`), so that a build never
   * waits behind a flood of quotes on quote.requests.
   */
  quoteChecks: 'quote.checks',
  swapRequests: 'swap.requests',
  swapCommands: 'swap.commands',
  swapEvents: 'swap.events',
  signingRequests: 'signing.requests',
  signingCommands: 'signing.commands',
  signingEvents: 'signing.events',
  limitOrderRequests: 'limit-order.requests',
  limitOrderEvents: 'limit-order.events',
  serviceHeartbeats: 'service.heartbeats',
} as const;

export type TopicName = (typeof Topics)[keyof typeof Topics];

export interface TopicSpec {
  name: string;
  partitions: number;
  /** Kafka topic configs (retention etc.). */
  config?: Record<string, string>;
}

const REQUEST_PARTITIONS = 6;
const REPLY_PARTITIONS = 8;
const STREAM_PARTITIONS = 6;
const DLQ_PARTITIONS = 1;

/** Topics answered by request-reply: each has a `<topic>.reply` twin. */
export const REQUEST_REPLY_TOPICS: readonly string[] = [
  Topics.catalogRequests,
  Topics.quoteRequests,
  Topics.quoteChecks,
  Topics.swapRequests,
  Topics.signingRequests,
  Topics.limitOrderRequests,
];

/** Topics consumed as streams of commands or events: each has a `<topic>.dlq` twin. */
export const STREAM_TOPICS: readonly string[] = [
  Topics.swapCommands,
  Topics.swapEvents,
  Topics.signingCommands,
  Topics.signingEvents,
  Topics.limitOrderEvents,
];

/**
 * Topics read by whoever watches, never consumed as a stream (no group of the suite commits on them,
 * so no dead-letter twin): the services' heartbeats. One partition is plenty (one small message per
 * instance per interval) and an hour of retention, since only the latest beats matter.
 */
export const MONITORING_TOPICS: readonly TopicSpec[] = [
  { name: Topics.serviceHeartbeats, partitions: 1, config: { 'retention.ms': '3600000' } },
];

export const replyTopicOf = (topic: string): string => `${topic}.reply`;
export const deadLetterTopicOf = (topic: string): string => `${topic}.dlq`;

export function allTopicSpecs(): TopicSpec[] {
  const specs: TopicSpec[] = [];
  for (const topic of REQUEST_REPLY_TOPICS) {
    specs.push({ name: topic, partitions: REQUEST_PARTITIONS });
    specs.push({
      name: replyTopicOf(topic),
      partitions: REPLY_PARTITIONS,
      config: { 'retention.ms': '3600000' },
    });
    specs.push({ name: deadLetterTopicOf(topic), partitions: DLQ_PARTITIONS });
  }
  for (const topic of STREAM_TOPICS) {
    specs.push({ name: topic, partitions: STREAM_PARTITIONS });
    specs.push({ name: deadLetterTopicOf(topic), partitions: DLQ_PARTITIONS });
  }
  specs.push(...MONITORING_TOPICS);
  return specs;
}
