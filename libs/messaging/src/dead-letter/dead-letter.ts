import type { Message, Producer } from 'kafkajs';
import { deadLetterTopicOf } from '@swapgw/contracts';
import { messagingMetrics } from '@swapgw/runtime';

/** Headers added to a message parked on `<topic>.dlq`, so an operator can see why and replay it. */
export const DeadLetterHeaders = {
  reason: 'x-dlq-reason',
  originalTopic: 'x-original-topic',
  originalPartition: 'x-original-partition',
  originalOffset: 'x-original-offset',
  consumerGroup: 'x-dlq-consumer-group',
  failedAt: 'x-dlq-failed-at',
} as const;

export interface DeadLetterSource {
  topic: string;
  partition: number;
  offset: string;
  key: string | Buffer | null | undefined;
  /** The message as received: parsed JSON, a string, or a Buffer. */
  value: unknown;
  headers: Record<string, unknown> | undefined;
}

const MAX_REASON_LENGTH = 1000;

function headerValue(value: unknown): string | Buffer | undefined {
  if (value === undefined || value === null) return undefined;
  if (Buffer.isBuffer(value) || typeof value === 'string') return value;
  return String(value);
}

/**
 * The copy of `source` for the dead-letter topic: same key and value, original headers kept, and
 * why, where from and when (`failedAtMs`, the caller's Clock time) besides.
 */
export function deadLetterMessage(
  source: DeadLetterSource,
  reason: string,
  consumerGroup: string,
  failedAtMs: number,
): { topic: string; message: Message } {
  const headers: Record<string, string | Buffer> = {};
  for (const [name, value] of Object.entries(source.headers ?? {})) {
    const v = headerValue(Array.isArray(value) ? value[0] : value);
    if (v !== undefined) headers[name] = v;
  }
  headers[DeadLetterHeaders.reason] = reason.slice(0, MAX_REASON_LENGTH);
  headers[DeadLetterHeaders.originalTopic] = source.topic;
  headers[DeadLetterHeaders.originalPartition] = String(source.partition);
  headers[DeadLetterHeaders.originalOffset] = source.offset;
  headers[DeadLetterHeaders.consumerGroup] = consumerGroup;
  headers[DeadLetterHeaders.failedAt] = new Date(failedAtMs).toISOString();
  const value =
    source.value === null || source.value === undefined
      ? null
      : Buffer.isBuffer(source.value) || typeof source.value === 'string'
        ? source.value
        : JSON.stringify(source.value);
  return {
    topic: deadLetterTopicOf(source.topic),
    message: { key: source.key ?? null, value, headers },
  };
}

export async function publishDeadLetter(
  producer: Producer,
  source: DeadLetterSource,
  reason: string,
  consumerGroup: string,
  failedAtMs: number,
): Promise<void> {
  const { topic, message } = deadLetterMessage(source, reason, consumerGroup, failedAtMs);
  await producer.send({ topic, messages: [message], acks: -1 });
  messagingMetrics.deadLettered(source.topic);
  messagingMetrics.produced(topic, undefined);
}
