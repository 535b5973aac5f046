import { randomBytes } from 'node:crypto';
import { Controller, INestMicroservice, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Ctx, KafkaContext, MessagePattern, Payload } from '@nestjs/microservices';
import { IsString } from 'class-validator';
import { Consumer, Kafka, Partitioners, Producer } from 'kafkajs';
import { replyTopicOf } from '@swapgw/contracts';
import {
  ensureTopics,
  kafkaClientConfig,
  kafkaMicroserviceOptions,
  KafkaSettings,
  MessagingModule,
  RequestReplyClient,
  RequestResponder,
} from '@swapgw/messaging';
import { GlobalClockModule, SystemClock } from '@swapgw/runtime';
import { elapsedMs, LatencySummary, mapLimit, ratio, round, summarize } from '../support/stats';

export interface KafkaRequestReplyResult {
  scenario: 'kafka-request-reply';
  requests: number;
  concurrency: number;
  /** RequestReplyClient → Nest @MessagePattern + RequestResponder → reply, one at a time. */
  messaging: { roundTripMs: LatencySummary; concurrentRequestsPerSecond: number };
  /** Plain kafkajs on the same broker: produce → consume (one hop) and produce → echo → consume (two hops). */
  rawKafkajs: {
    oneHopMs: LatencySummary;
    roundTripMs: LatencySummary;
    concurrentRoundTripsPerSecond: number;
  };
  /** messaging ÷ raw round trip, at p50 and p99 (1 = the library adds nothing). */
  latencyRatio: { p50: number; p99: number };
  throughputRatio: number;
}

export interface KafkaRequestReplyOptions {
  brokers: string[];
  requests: number;
  concurrency: number;
}

class EchoRequest {
  @IsString()
  text!: string;
}

const suffix = `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
const echoTopic = `bench.rr.${suffix}`;
const rawRequestTopic = `bench.raw-request.${suffix}`;
const rawReplyTopic = `bench.raw-reply.${suffix}`;

@Controller()
class EchoController {
  constructor(private readonly responder: RequestResponder) {}

  @MessagePattern(echoTopic)
  handle(@Payload() message: unknown, @Ctx() ctx: KafkaContext) {
    return this.responder.respond(message, ctx, {
      'bench.echo': { payload: EchoRequest, handle: (payload: EchoRequest) => ({ text: payload.text }) },
    });
  }
}

function settingsOf(brokers: string[], clientId: string): KafkaSettings {
  return { brokers, clientId, instanceId: `${clientId}-${suffix}` };
}

/**
 * Round trips through @swapgw/messaging (what every gateway → service call pays) against plain
 * kafkajs on the same broker, both measured one request at a time (latency) and with
 * `concurrency` requests in flight (throughput).
 */
export async function kafkaRequestReply(options: KafkaRequestReplyOptions): Promise<KafkaRequestReplyResult> {
  const adminSettings = settingsOf(options.brokers, 'bench-admin');
  await ensureTopics(adminSettings, [
    { name: echoTopic, partitions: 3 },
    { name: replyTopicOf(echoTopic), partitions: 8 },
    { name: `${echoTopic}.dlq`, partitions: 1 },
    // Raw topics partitioned and consumed like the library's (3 partitions, 3 handled at once).
    { name: rawRequestTopic, partitions: 3 },
    { name: rawReplyTopic, partitions: 3 },
  ]);
  await waitForLeaders(adminSettings, [echoTopic, replyTopicOf(echoTopic), rawRequestTopic, rawReplyTopic]);
  const messaging = await measureMessaging(options);
  const raw = await measureRaw(options);
  await deleteTopics(adminSettings, [
    echoTopic,
    replyTopicOf(echoTopic),
    `${echoTopic}.dlq`,
    rawRequestTopic,
    rawReplyTopic,
  ]);
  return {
    scenario: 'kafka-request-reply',
    requests: options.requests,
    concurrency: options.concurrency,
    messaging,
    rawKafkajs: raw,
    latencyRatio: {
      p50: ratio(messaging.roundTripMs.p50, raw.roundTripMs.p50),
      p99: ratio(messaging.roundTripMs.p99, raw.roundTripMs.p99),
    },
    throughputRatio: ratio(messaging.concurrentRequestsPerSecond, raw.concurrentRoundTripsPerSecond),
  };
}

async function measureMessaging(
  options: KafkaRequestReplyOptions,
): Promise<KafkaRequestReplyResult['messaging']> {
  const responderSettings = settingsOf(options.brokers, 'bench-responder');
  @Module({
    imports: [
      GlobalClockModule.of(new SystemClock()),
      MessagingModule.forRoot({ clientId: 'bench-responder', settings: responderSettings }),
    ],
    controllers: [EchoController],
  })
  class ResponderModule {}

  const responder: INestMicroservice = await NestFactory.createMicroservice(ResponderModule, {
    ...kafkaMicroserviceOptions(responderSettings, `bench-responder-${suffix}`, { fromBeginning: false }),
    logger: ['error'],
  });
  const requester = new RequestReplyClient(
    settingsOf(options.brokers, 'bench-requester'),
    [echoTopic],
    new SystemClock(),
    {
      defaultTimeoutMs: 30_000,
    },
  );
  try {
    await responder.listen();
    await requester.connect();
    const call = (n: number) =>
      requester.request<{ text: string }>(echoTopic, 'bench.echo', `agg-${n}`, { text: `m${n}` });
    // The responder's group may still be settling after listen(): the first answered call proves it serves.
    await call(-1);
    for (let n = 0; n < 20; n++) await call(n); // warm-up
    const samples: number[] = [];
    for (let n = 0; n < options.requests; n++) {
      const start = process.hrtime.bigint();
      const reply = await call(n);
      samples.push(elapsedMs(start));
      if (reply.text !== `m${n}`) throw new Error(`request-reply answered ${reply.text} to m${n}`);
    }
    const indexes = Array.from({ length: options.requests }, (_, n) => n);
    const start = process.hrtime.bigint();
    await mapLimit(indexes, options.concurrency, (n) => call(n));
    const seconds = elapsedMs(start) / 1000;
    return {
      roundTripMs: summarize(samples),
      concurrentRequestsPerSecond: round(options.requests / seconds),
    };
  } finally {
    await requester.close();
    await responder.close();
  }
}

async function measureRaw(options: KafkaRequestReplyOptions): Promise<KafkaRequestReplyResult['rawKafkajs']> {
  // Same client settings and durability (acks all) as the library, nothing else.
  const kafka = new Kafka(kafkaClientConfig(settingsOf(options.brokers, 'bench-raw')));
  const producer: Producer = kafka.producer({
    allowAutoTopicCreation: false,
    createPartitioner: Partitioners.DefaultPartitioner,
  });
  const echoConsumer: Consumer = kafka.consumer({
    groupId: `bench-raw-echo-${suffix}`,
    allowAutoTopicCreation: false,
  });
  const replyConsumer: Consumer = kafka.consumer({
    groupId: `bench-raw-reply-${suffix}`,
    allowAutoTopicCreation: false,
  });
  const waiting = new Map<string, () => void>();
  const oneHop = new Map<string, number>();
  const sentAt = new Map<string, bigint>();
  const joined = (consumer: Consumer) =>
    new Promise<void>((resolve) => consumer.on(consumer.events.GROUP_JOIN, () => resolve()));
  try {
    await producer.connect();
    await Promise.all([echoConsumer.connect(), replyConsumer.connect()]);
    await echoConsumer.subscribe({ topic: rawRequestTopic, fromBeginning: false });
    await replyConsumer.subscribe({ topic: rawReplyTopic, fromBeginning: false });
    const echoJoined = joined(echoConsumer);
    const replyJoined = joined(replyConsumer);
    await echoConsumer.run({
      partitionsConsumedConcurrently: 3,
      eachMessage: async ({ message }) => {
        const id = message.key?.toString() ?? '';
        const sent = sentAt.get(id);
        if (sent !== undefined) oneHop.set(id, elapsedMs(sent));
        await producer.send({
          topic: rawReplyTopic,
          acks: -1,
          messages: [{ key: message.key, value: message.value }],
        });
      },
    });
    await replyConsumer.run({
      partitionsConsumedConcurrently: 3,
      eachMessage: async ({ message }) => {
        const id = message.key?.toString() ?? '';
        waiting.get(id)?.();
        waiting.delete(id);
      },
    });
    await Promise.all([echoJoined, replyJoined]);

    const roundTrip = async (id: string): Promise<number> => {
      const replied = new Promise<void>((resolve) => waiting.set(id, resolve));
      const start = process.hrtime.bigint();
      sentAt.set(id, start);
      await producer.send({
        topic: rawRequestTopic,
        acks: -1,
        messages: [{ key: id, value: JSON.stringify({ text: id }) }],
      });
      await withTimeout(replied, 30_000, `raw reply ${id}`);
      return elapsedMs(start);
    };
    // Offsets "latest" are fixed on the first fetch: the first round trip that comes back proves both consumers read.
    await roundTrip(`probe-${suffix}`);
    for (let n = 0; n < 20; n++) await roundTrip(`warm-${n}`);
    const samples: number[] = [];
    const hops: number[] = [];
    for (let n = 0; n < options.requests; n++) {
      const id = `seq-${n}`;
      samples.push(await roundTrip(id));
      hops.push(oneHop.get(id) ?? Number.NaN);
    }
    const ids = Array.from({ length: options.requests }, (_, n) => `par-${n}`);
    const start = process.hrtime.bigint();
    await mapLimit(ids, options.concurrency, (id) => roundTrip(id));
    const seconds = elapsedMs(start) / 1000;
    return {
      oneHopMs: summarize(hops.filter((h) => !Number.isNaN(h))),
      roundTripMs: summarize(samples),
      concurrentRoundTripsPerSecond: round(options.requests / seconds),
    };
  } finally {
    await Promise.allSettled([echoConsumer.disconnect(), replyConsumer.disconnect()]);
    await producer.disconnect();
  }
}

/**
 * A fresh broker can answer "not the leader" to offset look-ups for a moment after the topics were
 * created; both clients look offsets up while connecting, so wait until every partition answers.
 */
async function waitForLeaders(settings: KafkaSettings, topics: string[], timeoutMs = 30_000): Promise<void> {
  const admin = new Kafka(kafkaClientConfig(settings)).admin();
  await admin.connect();
  const deadline = Date.now() + timeoutMs;
  try {
    for (const topic of topics) {
      for (;;) {
        try {
          await admin.fetchTopicOffsets(topic);
          break;
        } catch (error) {
          if (Date.now() > deadline) throw error;
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
      }
    }
  } finally {
    await admin.disconnect();
  }
}

async function deleteTopics(settings: KafkaSettings, topics: string[]): Promise<void> {
  const admin = new Kafka(kafkaClientConfig(settings)).admin();
  await admin.connect();
  try {
    await admin.deleteTopics({ topics });
  } catch {
    // The bench broker is thrown away anyway; on a shared one leftover bench topics are harmless.
  } finally {
    await admin.disconnect();
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>(
    (_, reject) => (timer = setTimeout(() => reject(new Error(`${what} not received within ${ms} ms`)), ms)),
  );
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
