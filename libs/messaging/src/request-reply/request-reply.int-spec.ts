import net from 'node:net';
import { Controller, INestMicroservice, Module } from '@nestjs/common';
import { Ctx, KafkaContext, MessagePattern, Payload } from '@nestjs/microservices';
import { IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import { AssignerProtocol, Kafka, logLevel } from 'kafkajs';
import type { ISocketFactory } from 'kafkajs';
import { CodedError, ErrorCodes, replyTopicOf, deadLetterTopicOf } from '@swapgw/contracts';
import { waitFor } from '@swapgw/testing';
import { GlobalClockModule, SystemClock } from '@swapgw/runtime';
import { ensureTopics } from '../kafka/ensure-topics';
import { createKafkaMicroservice } from '../bootstrap/create-kafka-microservice';
import { MessagingModule } from '../messaging.module';
import { DeadLetterHeaders } from '../dead-letter/dead-letter';
import { testKafkaSettings, TopicReader, uniqueSuffix } from '../testing/messaging-test-support';
import { ownReplyPartitionIndex } from './own-reply-partition';
import { RequestReplyClient } from './request-reply.client';
import { RequestResponder } from './request-responder';

class EchoRequest {
  @IsString()
  text!: string;

  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(5000)
  delayMs?: number;
}

const suffix = uniqueSuffix();
const requestTopic = `itest.rr.${suffix}`;
const silentTopic = `itest.rr-silent.${suffix}`;
const slowTopic = `itest.rr-slow.${suffix}`;
const responderGroup = `itest-responder-${suffix}`;

@Controller()
class EchoController {
  constructor(private readonly responder: RequestResponder) {}

  @MessagePattern(requestTopic)
  handle(@Payload() message: unknown, @Ctx() ctx: KafkaContext) {
    return this.responder.respond(message, ctx, {
      'echo.say': {
        payload: EchoRequest,
        handle: async (payload: EchoRequest) => {
          if (payload.delayMs) await new Promise((r) => setTimeout(r, payload.delayMs));
          return { text: payload.text };
        },
      },
      'echo.unknown-quote': {
        payload: EchoRequest,
        handle: () => {
          throw new CodedError(ErrorCodes.QUOTE_NOT_FOUND, 'no such quote', { quoteId: 'q-1' });
        },
      },
      'echo.bug': {
        payload: EchoRequest,
        handle: () => {
          throw new Error('secret internals');
        },
      },
    });
  }
}

@Module({
  imports: [
    GlobalClockModule.of(new SystemClock()),
    MessagingModule.forRoot({ clientId: 'itest-responder', settings: testKafkaSettings('itest-responder') }),
  ],
  controllers: [EchoController],
})
class ResponderModule {}

/** A peer that answers, but later than its requesters wait: a service of its own, so echo stays fast. */
@Controller()
class SlowController {
  constructor(private readonly responder: RequestResponder) {}

  @MessagePattern(slowTopic)
  handle(@Payload() message: unknown, @Ctx() ctx: KafkaContext) {
    return this.responder.respond(message, ctx, {
      'echo.slow': {
        payload: EchoRequest,
        handle: async (payload: EchoRequest) => {
          await new Promise((r) => setTimeout(r, payload.delayMs ?? 0));
          return { text: payload.text };
        },
      },
    });
  }
}

@Module({
  imports: [
    GlobalClockModule.of(new SystemClock()),
    MessagingModule.forRoot({
      clientId: 'itest-slow-responder',
      settings: testKafkaSettings('itest-slow-responder'),
    }),
  ],
  controllers: [SlowController],
})
class SlowResponderModule {}

describe('request-reply over Kafka (two requesters, one responder)', () => {
  const settings = testKafkaSettings('itest-rr');
  let responder: INestMicroservice;
  let slowResponder: INestMicroservice;
  const requesters: RequestReplyClient[] = [];
  let dlq: TopicReader;

  beforeAll(async () => {
    await ensureTopics(settings, [
      { name: requestTopic, partitions: 3 },
      { name: replyTopicOf(requestTopic), partitions: 8 },
      { name: deadLetterTopicOf(requestTopic), partitions: 1 },
      { name: silentTopic, partitions: 1 },
      { name: replyTopicOf(silentTopic), partitions: 8 },
      { name: slowTopic, partitions: 1 },
      { name: replyTopicOf(slowTopic), partitions: 8 },
      { name: deadLetterTopicOf(slowTopic), partitions: 1 },
    ]);
    responder = await createKafkaMicroservice(ResponderModule, settings, responderGroup, {
      logger: ['error'],
    });
    await responder.listen();
    slowResponder = await createKafkaMicroservice(SlowResponderModule, settings, `${responderGroup}-slow`, {
      logger: ['error'],
    });
    await slowResponder.listen();
    for (const instanceId of [`a-${suffix}`, `b-${suffix}`]) {
      const client = new RequestReplyClient(
        testKafkaSettings('itest-gateway', instanceId),
        [requestTopic, silentTopic],
        new SystemClock(),
        {
          defaultTimeoutMs: 20000,
        },
      );
      await client.connect();
      requesters.push(client);
    }
    dlq = await new TopicReader(settings, deadLetterTopicOf(requestTopic)).start();
  });

  afterAll(async () => {
    await Promise.allSettled([
      ...requesters.map((r) => r.close()),
      responder?.close(),
      slowResponder?.close(),
      dlq?.stop(),
    ]);
  });

  it('gives each requester instance exactly its own replies', async () => {
    expect(requesters.every((r) => r.isReady())).toBe(true);
    expect(new Set(requesters.map((r) => r.groupId)).size).toBe(2);
    const calls = requesters.flatMap((requester, i) =>
      Array.from({ length: 25 }, (_, n) => {
        const text = `requester-${i}-message-${n}`;
        return requester
          .request<{ text: string }>(requestTopic, 'echo.say', `agg-${i}-${n}`, {
            text,
            delayMs: n % 5 === 0 ? 50 : 0,
          })
          .then((reply) => ({ sent: text, got: reply.text }));
      }),
    );
    const results = await Promise.all(calls);
    expect(results).toHaveLength(50);
    for (const r of results) expect(r.got).toBe(r.sent);

    // Each reads one partition of each reply topic, the one its instance id picks (both may pick the same).
    const admin = new Kafka({
      clientId: 'rr-it-admin',
      brokers: settings.brokers,
      logLevel: logLevel.NOTHING,
    }).admin();
    await admin.connect();
    try {
      const { groups } = await admin.describeGroups(requesters.map((r) => r.groupId));
      for (const [i, group] of groups.entries()) {
        const assignment =
          AssignerProtocol.MemberAssignment.decode(group.members[0].memberAssignment)?.assignment ?? {};
        const instanceId = [`a-${suffix}`, `b-${suffix}`][
          requesters.findIndex((r) => r.groupId === group.groupId)
        ];
        expect([i, assignment[replyTopicOf(requestTopic)]]).toEqual([
          i,
          [ownReplyPartitionIndex(instanceId, 8)],
        ]);
      }
    } finally {
      await admin.disconnect();
    }
  });

  it('answers an in-flight request while another requester instance joins and leaves', async () => {
    const third = new RequestReplyClient(
      testKafkaSettings('itest-gateway', `c-${suffix}`),
      [requestTopic],
      new SystemClock(),
    );
    const inFlight = requesters[0].request<{ text: string }>(requestTopic, 'echo.say', 'agg-slow', {
      text: 'slow',
      delayMs: 1500,
    });
    await third.connect();
    try {
      await expect(
        third.request<{ text: string }>(requestTopic, 'echo.say', 'agg-3', { text: 'third' }),
      ).resolves.toEqual({ text: 'third' });
    } finally {
      await third.close();
    }
    await expect(inFlight).resolves.toEqual({ text: 'slow' });
  });

  it('turns an error reply into the responder CodedError, and a bug into INTERNAL_ERROR without its message', async () => {
    await expect(
      requesters[1].request(requestTopic, 'echo.unknown-quote', 'agg-e', { text: 'x' }),
    ).rejects.toMatchObject({
      name: 'CodedError',
      code: 'QUOTE_NOT_FOUND',
      details: { quoteId: 'q-1' },
    });
    const bug = await requesters[1]
      .request(requestTopic, 'echo.bug', 'agg-b', { text: 'x' })
      .catch((e: CodedError) => e);
    expect(bug).toBeInstanceOf(CodedError);
    expect((bug as CodedError).code).toBe('INTERNAL_ERROR');
    expect((bug as CodedError).message).not.toContain('secret');
  });

  it('answers an invalid request with VALIDATION_FAILED and parks a copy on the dead-letter topic', async () => {
    const error = await requesters[0]
      .request(requestTopic, 'echo.say', 'agg-invalid', { text: 42 })
      .catch((e: CodedError) => e);
    expect(error).toMatchObject({ code: 'VALIDATION_FAILED' });
    const parked = await waitFor(() => dlq.messages.find((m) => m.key === 'agg-invalid'), {
      description: 'the invalid request on the DLQ',
      timeoutMs: 30_000,
    });
    expect(parked.headers[DeadLetterHeaders.reason]).toContain('payload.text');
    expect(parked.headers[DeadLetterHeaders.originalTopic]).toBe(requestTopic);
    expect(parked.headers[DeadLetterHeaders.originalOffset]).toMatch(/^\d+$/);
    expect(JSON.parse(parked.value!).payload).toEqual({ text: 42 });
    // The responder goes on answering after the invalid message.
    await expect(
      requesters[0].request(requestTopic, 'echo.say', 'agg-after', { text: 'after' }),
    ).resolves.toEqual({ text: 'after' });
  });

  it('throws SERVICE_UNAVAILABLE when nobody answers in time', async () => {
    const startedAt = Date.now();
    const error = await requesters[0]
      .request(silentTopic, 'echo.say', 'agg-t', { text: 'anyone?' }, { timeoutMs: 1500 })
      .catch((e) => e);
    expect(error).toMatchObject({ name: 'CodedError', code: 'SERVICE_UNAVAILABLE' });
    expect(Date.now() - startedAt).toBeLessThan(5000);
  });

  it('waits past its timeout for a busy responder while told to, and no longer than told', async () => {
    const client = new RequestReplyClient(
      testKafkaSettings('itest-gateway', `longer-${suffix}`),
      [slowTopic],
      new SystemClock(),
    );
    try {
      await client.connect();
      const slow = (n: number, waitLonger: { stillWaiting: () => boolean; upToMs: number }) => {
        const startedAt = Date.now();
        return client
          .request(
            slowTopic,
            'echo.slow',
            `agg-longer-${n}`,
            { text: `late ${n}`, delayMs: 2500 },
            { timeoutMs: 500, waitLonger },
          )
          .then(
            (reply) => ({ reply, afterMs: Date.now() - startedAt }),
            (error: unknown) => ({ error, afterMs: Date.now() - startedAt }),
          );
      };
      // The responder is known to be up: the answer that comes at 2.5 s is taken.
      const [waited, away, capped] = await Promise.all([
        slow(1, { stillWaiting: () => true, upToMs: 10_000 }),
        // It is known to be down: the request fails at its own timeout.
        slow(2, { stillWaiting: () => false, upToMs: 10_000 }),
        // Up, but the longer wait is bounded below the answer's delay.
        slow(3, { stillWaiting: () => true, upToMs: 1_200 }),
      ]);
      expect(waited).toEqual({ reply: { text: 'late 1' }, afterMs: expect.any(Number) });
      expect(waited.afterMs).toBeGreaterThanOrEqual(2500);
      expect(away).toMatchObject({ error: { name: 'CodedError', code: 'SERVICE_UNAVAILABLE' } });
      expect(away.afterMs).toBeLessThan(1500);
      expect(capped).toMatchObject({ error: { name: 'CodedError', code: 'SERVICE_UNAVAILABLE' } });
      expect(capped.afterMs).toBeGreaterThanOrEqual(1200);
      expect(capped.afterMs).toBeLessThan(2500);
    } finally {
      await client.close();
    }
  });

  it('keeps the same client through many answers slower than the timeout, and answers a fast request at once after', async () => {
    // A tight consumer bound: were the reply consumer's fetches not seen as life, the slow phase
    // below (longer than the bound) would replace the client.
    const client = new RequestReplyClient(
      testKafkaSettings('itest-gateway', `slow-${suffix}`),
      [requestTopic, slowTopic],
      new SystemClock(),
      {
        liveness: { consumerStallMs: 3000 },
      },
    );
    try {
      await client.connect();
      const groupId = client.groupId;
      const startedAt = Date.now();
      for (let n = 0; n < 10; n++) {
        const error = await client
          .request(
            slowTopic,
            'echo.slow',
            `agg-slow-${n}`,
            { text: 'late', delayMs: 700 },
            { timeoutMs: 500 },
          )
          .catch((e: unknown) => e);
        expect(error).toMatchObject({ name: 'CodedError', code: 'SERVICE_UNAVAILABLE' });
        expect(client.isReady()).toBe(true);
      }
      expect(Date.now() - startedAt).toBeGreaterThan(3000);
      const fastStartedAt = Date.now();
      await expect(
        client.request(requestTopic, 'echo.say', 'agg-fast', { text: 'fast' }, { timeoutMs: 2000 }),
      ).resolves.toEqual({ text: 'fast' });
      // No rejoin in between: the same group, and an answer in a round trip rather than a reconnect.
      expect(Date.now() - fastStartedAt).toBeLessThan(1000);
      expect(client.groupId).toBe(groupId);
    } finally {
      await client.close();
    }
  });

  it('replaces a client whose reply consumer stopped receiving, in a new group, and answers again', async () => {
    // What a cut connection can leave behind: sockets that stay open but deliver nothing. The
    // client looks joined; only its consumer's fetches stop.
    const frozen: net.Socket[] = [];
    let freezing = true;
    const socketFactory: ISocketFactory = ({ host, port, onConnect }) => {
      const socket = net.connect({ host, port }, onConnect);
      if (freezing) frozen.push(socket);
      return socket;
    };
    // Thawed once the test is done with them, so the replaced client can finish closing (a socket
    // failed instead would make kafkajs retry its stuck send on a new connection after the close).
    const thaw = () => frozen.forEach((socket) => socket.resume());
    const client = new RequestReplyClient(
      testKafkaSettings('itest-gateway', `dead-${suffix}`),
      [requestTopic],
      new SystemClock(),
      {
        liveness: { consumerStallMs: 3000 },
        kafkaConfig: { socketFactory },
      },
    );
    try {
      await client.connect();
      await expect(client.request(requestTopic, 'echo.say', 'agg-d0', { text: 'before' })).resolves.toEqual({
        text: 'before',
      });
      const deadGroup = client.groupId;
      freezing = false; // sockets of the next client work
      for (const socket of frozen) socket.pause();
      expect(client.isReady()).toBe(true);
      const frozenAt = Date.now();
      for (let n = 0; n < 6 && client.groupId === deadGroup; n++) {
        await client
          .request(requestTopic, 'echo.say', `agg-d${n + 1}`, { text: 'lost' }, { timeoutMs: 1500 })
          .catch(() => undefined);
      }
      // Replaced once its consumer had not fetched for the bound, not before.
      expect(client.groupId).not.toBe(deadGroup);
      expect(Date.now() - frozenAt).toBeGreaterThan(3000);
      thaw();
      const reconnectStartedAt = Date.now();
      await expect(client.request(requestTopic, 'echo.say', 'agg-back', { text: 'back' })).resolves.toEqual({
        text: 'back',
      });
      expect(client.isReady()).toBe(true);
      // A new group is joined at once: no wait for the dead consumer to leave the old one.
      expect(Date.now() - reconnectStartedAt).toBeLessThan(10_000);
    } finally {
      thaw();
      await client.close();
    }
  });

  it('throws SERVICE_UNAVAILABLE when Kafka cannot be reached', async () => {
    const unreachable = new RequestReplyClient(
      { brokers: ['127.0.0.1:1'], clientId: 'itest-down', instanceId: suffix },
      [requestTopic],
      new SystemClock(),
    );
    try {
      const error = await unreachable
        .request(requestTopic, 'echo.say', 'agg-d', { text: 'x' }, { timeoutMs: 2000 })
        .catch((e) => e);
      expect(error).toMatchObject({ name: 'CodedError', code: 'SERVICE_UNAVAILABLE' });
      expect(unreachable.isReady()).toBe(false);
    } finally {
      await unreachable.close();
    }
  });
});
