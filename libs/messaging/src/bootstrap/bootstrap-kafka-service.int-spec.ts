import { Controller, DynamicModule, Module } from '@nestjs/common';
import { Ctx, KafkaContext, MessagePattern, Payload } from '@nestjs/microservices';
import { IsString } from 'class-validator';
import { Kafka, logLevel } from 'kafkajs';
import { deadLetterTopicOf, replyTopicOf } from '@swapgw/contracts';
import { GlobalClockModule, STARTUP_WARMUPS, StartupWarmup, SystemClock } from '@swapgw/runtime';
import { freePort, waitFor } from '@swapgw/testing';
import { ensureTopics, MissingTopicsError } from '../kafka/ensure-topics';
import { kafkaHealth } from '../kafka/kafka-health';
import { MessagingModule } from '../messaging.module';
import { RequestReplyClient } from '../request-reply/request-reply.client';
import { RequestResponder } from '../request-reply/request-responder';
import { testKafkaSettings, uniqueSuffix } from '../testing/messaging-test-support';
import { bootstrapKafkaService, KafkaServiceHandle } from './bootstrap-kafka-service';

class PingRequest {
  @IsString()
  from!: string;
}

const suffix = uniqueSuffix();
const topic = `itest.ping.${suffix}`;
const groupId = `itest-ping-service-${suffix}`;
/** The ping service's topics: its requests, their replies and its dead letters. */
const specs = [
  { name: topic, partitions: 2 },
  { name: replyTopicOf(topic), partitions: 8 },
  { name: deadLetterTopicOf(topic), partitions: 1 },
];

@Controller()
class PingController {
  constructor(private readonly responder: RequestResponder) {}

  @MessagePattern(topic)
  ping(@Payload() message: unknown, @Ctx() ctx: KafkaContext) {
    return this.responder.respond(message, ctx, {
      'ping.request': { payload: PingRequest, handle: (p: PingRequest) => ({ pong: p.from }) },
    });
  }
}

@Module({
  imports: [
    GlobalClockModule.of(new SystemClock()),
    MessagingModule.forRoot({
      clientId: 'itest-ping-service',
      settings: testKafkaSettings('itest-ping-service'),
    }),
  ],
  controllers: [PingController],
})
class PingServiceModule {}

/** The ping service with start-up warm-ups (what an app lists under STARTUP_WARMUPS). */
function pingServiceWithWarmups(warmups: StartupWarmup[]): DynamicModule {
  return {
    module: PingServiceModule,
    providers: [{ provide: STARTUP_WARMUPS, useValue: warmups }],
  };
}

async function getJson(url: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(url);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('bootstrapKafkaService', () => {
  const settings = testKafkaSettings('itest-ping-service');
  let handle: KafkaServiceHandle | null = null;
  const requester = new RequestReplyClient(
    testKafkaSettings('itest-ping-caller'),
    [topic],
    new SystemClock(),
  );

  afterAll(async () => {
    await Promise.allSettled([handle?.close(), requester.close()]);
  });

  it('is live at once, ready only after preparation and the group join, answers, and on SIGTERM leaves the group and exits 0', async () => {
    const port = await freePort();
    let finishPreparation!: () => void;
    const preparation = new Promise<void>((resolve) => (finishPreparation = resolve));
    const started = bootstrapKafkaService({
      module: PingServiceModule,
      service: 'itest-ping-service',
      groupId,
      healthPort: port,
      healthHost: '127.0.0.1',
      settings,
      topics: specs,
      prepare: () => preparation,
    });
    const base = `http://127.0.0.1:${port}`;

    const live = await waitFor(() => getJson(`${base}/health/live`).catch(() => null), {
      description: 'the live endpoint',
      timeoutMs: 30_000,
    });
    expect(live.status).toBe(200);
    const notReady = await getJson(`${base}/health/ready`);
    expect(notReady.status).toBe(503);
    expect(notReady.body).toMatchObject({
      status: 'unavailable',
      checks: { kafka: 'down', database: 'down' },
    });
    expect(typeof notReady.body.uptimeSeconds).toBe('number');

    finishPreparation();
    handle = await started;
    const ready = await waitFor(
      async () => {
        const r = await getJson(`${base}/health/ready`);
        return r.status === 200 ? r : null;
      },
      { description: 'readiness', timeoutMs: 30_000 },
    );
    expect(ready.body).toMatchObject({ status: 'ok', checks: { kafka: 'up', database: 'up' } });

    await requester.connect();
    await expect(requester.request(topic, 'ping.request', 'p-1', { from: 'test' })).resolves.toEqual({
      pong: 'test',
    });

    // What a supervisor's SIGTERM does (process.exit is held back: this is the test's process).
    const exit = jest.spyOn(process, 'exit').mockImplementation((() => undefined) as never);
    try {
      process.emit('SIGTERM', 'SIGTERM');
      await waitFor(() => exit.mock.calls.length > 0, {
        description: 'the exit after SIGTERM',
        timeoutMs: 30_000,
      });
      expect(exit.mock.calls).toEqual([[0]]);
    } finally {
      exit.mockRestore();
    }
    handle = null;
    const admin = new Kafka({
      clientId: 'itest-inspect',
      brokers: settings.brokers,
      logLevel: logLevel.NOTHING,
    }).admin();
    await admin.connect();
    try {
      const { groups } = await admin.describeGroups([groupId]);
      expect(groups[0].members).toHaveLength(0);
    } finally {
      await admin.disconnect();
    }
    await expect(fetch(`${base}/health/live`)).rejects.toThrow();
  });
});

describe('bootstrapKafkaService warm-ups (StartupWarmup)', () => {
  const settings = testKafkaSettings('itest-ping-warmup');
  const handles: KafkaServiceHandle[] = [];
  const requester = new RequestReplyClient(
    testKafkaSettings('itest-ping-warmup-caller'),
    [topic],
    new SystemClock(),
  );

  afterAll(async () => {
    await Promise.allSettled([...handles.map((handle) => handle.close()), requester.close()]);
  });

  const start = (warmups: StartupWarmup[], port: number, warmupTimeoutMs?: number) =>
    bootstrapKafkaService({
      module: pingServiceWithWarmups(warmups),
      service: 'itest-ping-warmup',
      groupId: `itest-ping-warmup-${uniqueSuffix()}`,
      healthPort: port,
      healthHost: '127.0.0.1',
      settings,
      topics: specs,
      heartbeat: false,
      warmupTimeoutMs,
    }).then((handle) => {
      handles.push(handle);
      return handle;
    });

  it('answers 503 on /health/ready, and consumes nothing, until its warm-up finished; then 200 and answers', async () => {
    const port = await freePort();
    let warmUpStarted = false;
    let finishWarmUp!: () => void;
    const started = start(
      [
        {
          warmupName: 'held',
          warmUp: () => {
            warmUpStarted = true;
            return new Promise<void>((resolve) => (finishWarmUp = resolve));
          },
        },
      ],
      port,
    );
    const base = `http://127.0.0.1:${port}`;
    await waitFor(() => warmUpStarted, { description: 'the warm-up to start', timeoutMs: 60_000 });
    const held = await getJson(`${base}/health/ready`);
    expect(held.status).toBe(503);
    expect(held.body).toMatchObject({
      status: 'unavailable',
      checks: { database: 'up', warmup: 'down', kafka: 'down' },
    });

    finishWarmUp();
    await started;
    const ready = await waitFor(
      async () => {
        const r = await getJson(`${base}/health/ready`);
        return r.status === 200 ? r : null;
      },
      { description: 'readiness after the warm-up', timeoutMs: 30_000 },
    );
    expect(ready.body).toMatchObject({ status: 'ok', checks: { kafka: 'up', database: 'up', warmup: 'up' } });
    await requester.connect();
    await expect(requester.request(topic, 'ping.request', 'w-1', { from: 'warm' })).resolves.toEqual({
      pong: 'warm',
    });
  });

  it('reports ready anyway once its bound passed with a warm-up that never answers, or after one that failed', async () => {
    const port = await freePort();
    await start(
      [
        { warmupName: 'dead chain', warmUp: () => new Promise<never>(() => undefined) },
        { warmupName: 'failing chain', warmUp: () => Promise.reject(new Error('connect ECONNREFUSED')) },
      ],
      port,
      500,
    );
    const ready = await waitFor(
      async () => {
        const r = await getJson(`http://127.0.0.1:${port}/health/ready`);
        return r.status === 200 ? r : null;
      },
      { description: 'readiness past the warm-up bound', timeoutMs: 30_000 },
    );
    expect(ready.body).toMatchObject({ status: 'ok', checks: { kafka: 'up', database: 'up', warmup: 'up' } });
  });
});

describe('kafkaHealth', () => {
  it('reports the cluster when Kafka answers', async () => {
    await expect(kafkaHealth(testKafkaSettings('itest-health'))).resolves.toMatchObject({
      ok: true,
      brokers: expect.any(Number),
    });
  });

  it('reports down within its timeout when Kafka cannot be reached', async () => {
    const startedAt = Date.now();
    const health = await kafkaHealth(
      { brokers: ['127.0.0.1:1'], clientId: 'itest-health', instanceId: 'x' },
      1000,
    );
    expect(health.ok).toBe(false);
    expect(health.error).toBeTruthy();
    expect(Date.now() - startedAt).toBeLessThan(3000);
  });
});

describe('ensureTopics', () => {
  it('creates missing topics, is idempotent under concurrent calls, and raises partition counts', async () => {
    const settings = testKafkaSettings('itest-topics');
    const name = `itest.topics.${uniqueSuffix()}`;
    await Promise.all([
      ensureTopics(settings, [{ name, partitions: 2 }]),
      ensureTopics(settings, [{ name, partitions: 2 }]),
    ]);
    await ensureTopics(settings, [{ name, partitions: 4, config: { 'retention.ms': '3600000' } }]);
    const admin = new Kafka({
      clientId: 'itest-inspect',
      brokers: settings.brokers,
      logLevel: logLevel.NOTHING,
    }).admin();
    await admin.connect();
    try {
      const metadata = await admin.fetchTopicMetadata({ topics: [name] });
      expect(metadata.topics[0].partitions).toHaveLength(4);
    } finally {
      await admin.disconnect();
    }
  });

  it('with KAFKA_MANAGE_TOPICS=false creates and changes nothing, and names the missing topics', async () => {
    const settings = { ...testKafkaSettings('itest-topics-unmanaged'), manageTopics: false };
    const present = `itest.topics.present.${uniqueSuffix()}`;
    const missing = `itest.topics.missing.${uniqueSuffix()}`;
    await ensureTopics(testKafkaSettings('itest-topics-owner'), [{ name: present, partitions: 1 }]);
    await expect(ensureTopics(settings, [{ name: present, partitions: 3 }])).resolves.toBeUndefined();
    const check = ensureTopics(settings, [
      { name: present, partitions: 1 },
      { name: missing, partitions: 1 },
    ]);
    await expect(check).rejects.toThrow(MissingTopicsError);
    await expect(check).rejects.toThrow(new RegExp(`do not exist: ${missing.replace(/\./g, '\\.')} `));
    const admin = new Kafka({
      clientId: 'itest-inspect',
      brokers: settings.brokers,
      logLevel: logLevel.NOTHING,
    }).admin();
    await admin.connect();
    try {
      expect(await admin.listTopics()).not.toContain(missing);
      const metadata = await admin.fetchTopicMetadata({ topics: [present] });
      expect(metadata.topics[0].partitions).toHaveLength(1);
    } finally {
      await admin.disconnect();
    }
  });
});
