/**
 * Rewinds a consumer group on one topic so its service reprocesses the topic, using Kafka's own
 * admin API. Consumers are idempotent (processed_events), so a replay applies nothing twice.
 *
 *   npm run replay -- --topic swap.events --group gateway --from-beginning
 *   npm run replay -- --topic signing.events --group execution-planner --from-timestamp 2026-11-21T05:00:00Z
 *
 * Kafka only moves the offsets of a group with no active members: stop (or scale to zero) the
 * service that owns the group first, run the replay, then start it again. See docs/runbook.md, "Replaying a topic".
 */
import { Admin, Kafka, logLevel } from 'kafkajs';
import {
  commitGroupOffsets,
  KafkaSecurity,
  kafkajsSecurityOptions,
  kafkaSecurityFrom,
} from '@swapgw/messaging';

export interface ReplayOptions {
  brokers: string[];
  topic: string;
  group: string;
  /** Epoch milliseconds; omitted means from the beginning. */
  fromTimestampMs?: number;
  /** TLS and SASL, from the same KAFKA_SECURITY_PROTOCOL / KAFKA_SSL_* / KAFKA_SASL_* variables as the apps. */
  security?: KafkaSecurity;
}

export interface ReplayResult {
  topic: string;
  group: string;
  partitions: { partition: number; offset: string }[];
}

export class ReplayError extends Error {}

export async function replay(options: ReplayOptions): Promise<ReplayResult> {
  const kafka = new Kafka({
    clientId: 'swapgw-replay',
    brokers: options.brokers,
    ...(options.security ? kafkajsSecurityOptions(options.security) : {}),
    logLevel: logLevel.NOTHING,
  });
  const admin = kafka.admin();
  await admin.connect();
  try {
    await assertTopicExists(admin, options.topic);
    await assertGroupIdle(admin, options.group);
    const partitions =
      options.fromTimestampMs === undefined
        ? (await admin.fetchTopicOffsets(options.topic)).map((p) => ({
            partition: p.partition,
            offset: p.low,
          }))
        : await admin.fetchTopicOffsetsByTimestamp(options.topic, options.fromTimestampMs);
    await commitGroupOffsets(kafka, admin, options.group, [{ topic: options.topic, partitions }]);
    return {
      topic: options.topic,
      group: options.group,
      partitions: partitions.sort((a, b) => a.partition - b.partition),
    };
  } finally {
    await admin.disconnect();
  }
}

async function assertTopicExists(admin: Admin, topic: string): Promise<void> {
  const topics = await admin.listTopics();
  if (!topics.includes(topic)) throw new ReplayError(`topic "${topic}" does not exist`);
}

async function assertGroupIdle(admin: Admin, group: string): Promise<void> {
  const { groups } = await admin.describeGroups([group]);
  const described = groups[0];
  if (described && described.members.length > 0) {
    throw new ReplayError(
      `consumer group "${group}" has ${described.members.length} active member(s) (state ${described.state}); ` +
        'stop the service that owns it, replay, then start it again',
    );
  }
}

export function parseReplayArgs(argv: string[], env: NodeJS.ProcessEnv = process.env): ReplayOptions {
  const value = (flag: string): string | undefined => {
    const i = argv.indexOf(flag);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const topic = value('--topic');
  const group = value('--group');
  const fromBeginning = argv.includes('--from-beginning');
  const fromTimestamp = value('--from-timestamp');
  if (!topic || !group) throw new ReplayError('--topic <topic> and --group <consumer group> are required');
  if (fromBeginning === (fromTimestamp !== undefined)) {
    throw new ReplayError('give exactly one of --from-beginning or --from-timestamp <ISO 8601 or epoch ms>');
  }
  let fromTimestampMs: number | undefined;
  if (fromTimestamp !== undefined) {
    fromTimestampMs = /^\d+$/.test(fromTimestamp) ? Number(fromTimestamp) : Date.parse(fromTimestamp);
    if (!Number.isFinite(fromTimestampMs))
      throw new ReplayError(`--from-timestamp "${fromTimestamp}" is not a date`);
  }
  const brokers = (value('--brokers') ?? env.KAFKA_BROKERS ?? '127.0.0.1:9092')
    .split(',')
    .map((b) => b.trim());
  let security: KafkaSecurity;
  try {
    security = kafkaSecurityFrom(env);
  } catch (error) {
    throw new ReplayError((error as Error).message);
  }
  return { brokers, topic, group, fromTimestampMs, security };
}

if (require.main === module) {
  void (async () => {
    try {
      const result = await replay(parseReplayArgs(process.argv.slice(2)));
      for (const p of result.partitions) console.log(`${result.topic}[${p.partition}] → offset ${p.offset}`);
      console.log(`group "${result.group}" rewound; start its service to reprocess ${result.topic}`);
    } catch (error) {
      console.error(`replay: ${(error as Error).message}`);
      process.exit(error instanceof ReplayError ? 2 : 1);
    }
  })();
}
