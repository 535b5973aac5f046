import {
  allTopicSpecs,
  deadLetterTopicOf,
  REQUEST_REPLY_TOPICS,
  replyTopicOf,
  Topics,
  TopicSpec,
} from './topics';

/**
 * What each app does on Kafka, declared once: the topics it writes, the topics it reads and the
 * consumer groups it reads them with. deploy/kafka/users.yaml (Strimzi KafkaUser ACLs, `npm run
 * topics:manifest`) is generated from it, and tools/deploy/topic-access.spec.ts derives the same
 * from the apps' code (@MessagePattern / @TopicEvents handlers, request-reply clients, outbox
 * messages, producers, group ids), so a topic an app starts using without its ACL fails a test.
 *
 * Conventions the code follows, and that the ACLs follow from:
 * - a request-reply responder (`@MessagePattern(topic)`) answers on `<topic>.reply` and dead-letters
 *   to `<topic>.dlq`; a requester writes `<topic>` and reads `<topic>.reply` with groups of its own
 *   (`<clientId>.replies.<instanceId>.<generation>`, a prefix ACL), which it deletes when replaced;
 * - a stream consumer (`@TopicEvents(topic)` or a StandaloneGroupConsumer) dead-letters to `<topic>.dlq`;
 * - every Kafka service beats on `service.heartbeats`; the gateway watches it with groups of its own
 *   (`gateway.heartbeats.<instanceId>-<random>`, a prefix ACL).
 */
export interface TopicAccess {
  /** Topics the app writes (requests, replies, outbox events and commands, dead letters, heartbeats). */
  writes: string[];
  /** Topics the app reads. */
  reads: string[];
  /** Consumer groups the app joins, by exact name. */
  groups: string[];
  /** Prefixes of the consumer groups the app names per instance (reply and heartbeat watchers). */
  groupPrefixes: string[];
}

export const KAFKA_APPS = [
  'gateway',
  'quote-service',
  'execution-planner',
  'signer-surface',
  'limit-order-service',
] as const;
export type KafkaApp = (typeof KAFKA_APPS)[number];

/** A responder of `topic`: reads it, answers on its reply twin, dead-letters to its dlq twin. */
const responds = (topic: string) => ({
  reads: [topic],
  writes: [replyTopicOf(topic), deadLetterTopicOf(topic)],
});
/** A requester on `topic`: writes it, reads its reply twin. */
const requests = (topic: string) => ({ reads: [replyTopicOf(topic)], writes: [topic] });
/** A stream consumer of `topic`: reads it, dead-letters to its dlq twin. */
const consumes = (topic: string) => ({ reads: [topic], writes: [deadLetterTopicOf(topic)] });
const writes = (topic: string) => ({ reads: [], writes: [topic] });
const reads = (topic: string) => ({ reads: [topic], writes: [] });

function access(
  uses: { reads: string[]; writes: string[] }[],
  groups: string[],
  groupPrefixes: string[],
): TopicAccess {
  const unique = (topics: string[]) => [...new Set(topics)].sort();
  return {
    writes: unique(uses.flatMap((u) => u.writes)),
    reads: unique(uses.flatMap((u) => u.reads)),
    groups: [...groups].sort(),
    groupPrefixes: [...groupPrefixes].sort(),
  };
}

export const TOPIC_ACCESS: Record<KafkaApp, TopicAccess> = {
  // Asks every responder (GatewayMessagingModule's requestTopics), sends swap build commands, projects
  // swap.events into its read model (group KAFKA_GROUP_ID, `gateway`), delivers webhooks from swap
  // and limit-order events (group WEBHOOK_KAFKA_GROUP_ID, `gateway-webhooks`), watches heartbeats.
  gateway: access(
    [
      ...REQUEST_REPLY_TOPICS.map(requests),
      writes(Topics.swapCommands),
      consumes(Topics.swapEvents),
      consumes(Topics.limitOrderEvents),
      reads(Topics.serviceHeartbeats),
    ],
    ['gateway', 'gateway-webhooks'],
    ['gateway.replies.', 'gateway.heartbeats.'],
  ),
  // Answers quotes and the catalog in group `quote-service`, builds' checks in `quote-service-checks`
  // (a consumer lane of its own).
  'quote-service': access(
    [
      responds(Topics.catalogRequests),
      responds(Topics.quoteRequests),
      responds(Topics.quoteChecks),
      writes(Topics.serviceHeartbeats),
    ],
    ['quote-service', 'quote-service-checks'],
    [],
  ),
  // Outbox relay: swap.events and signing.commands; asks quote-service to re-price later legs.
  'execution-planner': access(
    [
      responds(Topics.swapRequests),
      requests(Topics.quoteChecks),
      consumes(Topics.swapCommands),
      consumes(Topics.signingEvents),
      writes(Topics.swapEvents),
      writes(Topics.signingCommands),
      writes(Topics.serviceHeartbeats),
    ],
    ['execution-planner'],
    ['execution-planner.replies.'],
  ),
  // Outbox relay: signing.events.
  'signer-surface': access(
    [
      responds(Topics.signingRequests),
      consumes(Topics.signingCommands),
      writes(Topics.signingEvents),
      writes(Topics.serviceHeartbeats),
    ],
    ['signer-surface'],
    [],
  ),
  // Asks quote-service for the market; outbox relay: limit-order.events and the swap.build commands of triggered orders.
  'limit-order-service': access(
    [
      responds(Topics.limitOrderRequests),
      requests(Topics.catalogRequests),
      requests(Topics.quoteRequests),
      writes(Topics.swapCommands),
      writes(Topics.limitOrderEvents),
      writes(Topics.serviceHeartbeats),
    ],
    ['limit-order-service'],
    ['limit-order-service.replies.'],
  ),
};

export const isKafkaApp = (name: string): name is KafkaApp =>
  (KAFKA_APPS as readonly string[]).includes(name);

/** The specs of the topics `app` reads or writes. */
export function topicSpecsOf(app: KafkaApp): TopicSpec[] {
  const used = new Set([...TOPIC_ACCESS[app].reads, ...TOPIC_ACCESS[app].writes]);
  return allTopicSpecs().filter((spec) => used.has(spec.name));
}
