import { Kafka } from 'kafkajs';
import { allTopicSpecs, isKafkaApp, topicSpecsOf, TopicSpec } from '@swapgw/contracts';
import { kafkaClientConfig, KafkaSettings } from './kafka-settings';

/** Topics the app needs that do not exist, when the apps do not manage topics (KAFKA_MANAGE_TOPICS=false). */
export class MissingTopicsError extends Error {
  constructor(readonly missing: string[]) {
    super(
      `KAFKA_MANAGE_TOPICS is false and ${missing.length} topic(s) this app needs do not exist: ${missing.join(', ')} ` +
        '(create them with the KafkaTopic resources of deploy/kafka, or `npm run topics:manifest` for their settings)',
    );
    this.name = 'MissingTopicsError';
  }
}

/**
 * The topics `app` ensures at start: all of the suite's while the apps manage topics (any app may be
 * the first to start); only its own when the operator does (KAFKA_MANAGE_TOPICS=false), since its
 * KafkaUser may describe no other (deploy/kafka/users.yaml) and they would look missing.
 */
export function topicsToEnsure(settings: KafkaSettings, app: string): TopicSpec[] {
  return settings.manageTopics === false && isKafkaApp(app) ? topicSpecsOf(app) : allTopicSpecs();
}

/**
 * Creates the topics that are missing and raises the partition count of those that have fewer
 * partitions than declared (partitions can only grow). Safe to call from several apps at once.
 * With `settings.manageTopics` false (KAFKA_MANAGE_TOPICS=false: an operator's tool, such as
 * Strimzi's Topic Operator, owns the topics) nothing is created or changed: the topics are only
 * checked to exist, and a MissingTopicsError names those that do not.
 */
export async function ensureTopics(
  settings: KafkaSettings,
  specs: TopicSpec[] = allTopicSpecs(),
): Promise<void> {
  const kafka = new Kafka(kafkaClientConfig({ ...settings, clientId: `${settings.clientId}-admin` }));
  const admin = kafka.admin();
  await admin.connect();
  try {
    if (settings.manageTopics === false) {
      const existing = new Set(await admin.listTopics());
      const missing = specs.map((s) => s.name).filter((name) => !existing.has(name));
      if (missing.length > 0) throw new MissingTopicsError(missing);
      return;
    }
    const existing = new Set(await admin.listTopics());
    const missing = specs.filter((s) => !existing.has(s.name));
    if (missing.length > 0) {
      try {
        // Leaders are waited for below, with retries: kafkajs's own wait gives up on the first
        // UNKNOWN_TOPIC_OR_PARTITION, which a busy broker answers while its metadata catches up
        // with a topic another app created at the same moment.
        await admin.createTopics({
          waitForLeaders: false,
          timeout: 30000,
          topics: missing.map((s) => ({
            topic: s.name,
            numPartitions: s.partitions,
            replicationFactor: -1, // broker default: 1 in dev, the cluster's setting in production
            configEntries: Object.entries(s.config ?? {}).map(([name, value]) => ({ name, value })),
          })),
        });
      } catch (error) {
        // Another app created some of them at the same moment: fine, the check below settles it.
        if (!isTopicAlreadyExists(error)) throw error;
      }
    }
    const present = specs.filter((s) => existing.has(s.name));
    if (present.length > 0) {
      const metadata = await admin.fetchTopicMetadata({ topics: present.map((s) => s.name) });
      const wanted = new Map(present.map((s) => [s.name, s.partitions]));
      const grow = metadata.topics
        .map((t) => ({ topic: t.name, have: t.partitions.length, want: wanted.get(t.name) ?? 0 }))
        .filter((t) => t.have < t.want);
      if (grow.length > 0) {
        await admin.createPartitions({
          validateOnly: false,
          timeout: 30000,
          topicPartitions: grow.map((t) => ({ topic: t.topic, count: t.want })),
        });
      }
    }
    await waitForLeaders(
      admin,
      specs.map((s) => s.name),
    );
  } finally {
    await admin.disconnect();
  }
}

function isTopicAlreadyExists(error: unknown): boolean {
  const e = error as { type?: string; errors?: Array<{ type?: string }> };
  if (e?.type === 'TOPIC_ALREADY_EXISTS') return true;
  return Array.isArray(e?.errors) && e.errors.every((x) => x.type === 'TOPIC_ALREADY_EXISTS');
}

/**
 * Topics just created (here or by another process) may not have leaders yet, or not be known yet to
 * the broker answering: producing before that fails. Retried until every partition has a leader.
 */
async function waitForLeaders(
  admin: ReturnType<Kafka['admin']>,
  topics: string[],
  timeoutMs = 30000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const metadata = await admin.fetchTopicMetadata({ topics });
      const leaderless = metadata.topics.filter((t) => t.partitions.some((p) => p.leader < 0));
      if (leaderless.length === 0) return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
    }
    if (Date.now() > deadline)
      throw new Error(`Kafka topics have no leader after ${timeoutMs} ms: ${topics.join(', ')}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
