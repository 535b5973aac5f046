import { Controller, INestMicroservice, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Ctx, KafkaContext, MessagePattern, Payload } from '@nestjs/microservices';
import { IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import { CodedError, ErrorCodes, replyTopicOf, deadLetterTopicOf } from '@swapgw/contracts';
import { ensureTopics } from '../kafka/ensure-topics';
import { kafkaMicroserviceOptions } from '../kafka/kafka-settings';
import { MessagingModule } from '../messaging.module';
import { DeadLetterHeaders } from '../dead-letter/dead-letter';
import { testKafkaSettings, TopicReader, uniqueSuffix, waitFor } from '../testing/messaging-test-support';
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
  imports: [MessagingModule.forRoot({ clientId: 'itest-responder', settings: testKafkaSettings('itest-responder') })],
  controllers: [EchoController],
})
class ResponderModule {}

describe('request-reply over Kafka (two requesters, one responder)', () => {
  const settings = testKafkaSettings('itest-rr');
  let responder: INestMicroservice;
  const requesters: RequestReplyClient[] = [];
  let dlq: TopicReader;

  beforeAll(async () => {
    await ensureTopics(settings, [
      { name: requestTopic, partitions: 3 },
      { name: replyTopicOf(requestTopic), partitions: 8 },
      { name: deadLetterTopicOf(requestTopic), partitions: 1 },
      { name: silentTopic, partitions: 1 },
      { name: replyTopicOf(silentTopic), partitions: 8 },
    ]);
    responder = await NestFactory.createMicroservice(ResponderModule, {
      ...kafkaMicroserviceOptions(settings, responderGroup),
      logger: ['error'],
    });
    await responder.listen();
    for (const instanceId of [`a-${suffix}`, `b-${suffix}`]) {
      const client = new RequestReplyClient(testKafkaSettings('itest-gateway', instanceId), [requestTopic, silentTopic], {
        defaultTimeoutMs: 20000,
      });
      await client.connect();
      requesters.push(client);
    }
    dlq = await new TopicReader(settings, deadLetterTopicOf(requestTopic)).start();
  });

  afterAll(async () => {
    await Promise.allSettled([...requesters.map((r) => r.close()), responder?.close(), dlq?.stop()]);
  });

  it('gives each requester instance exactly its own replies', async () => {
    expect(requesters.every((r) => r.isReady())).toBe(true);
    expect(new Set(requesters.map((r) => r.groupId)).size).toBe(2);
    const calls = requesters.flatMap((requester, i) =>
      Array.from({ length: 25 }, (_, n) => {
        const text = `requester-${i}-message-${n}`;
        return requester
          .request<{ text: string }>(requestTopic, 'echo.say', `agg-${i}-${n}`, { text, delayMs: n % 5 === 0 ? 50 : 0 })
          .then((reply) => ({ sent: text, got: reply.text }));
      }),
    );
    const results = await Promise.all(calls);
    expect(results).toHaveLength(50);
    for (const r of results) expect(r.got).toBe(r.sent);
  });

  it('answers an in-flight request while another requester instance joins and leaves', async () => {
    const third = new RequestReplyClient(testKafkaSettings('itest-gateway', `c-${suffix}`), [requestTopic]);
    const inFlight = requesters[0].request<{ text: string }>(requestTopic, 'echo.say', 'agg-slow', { text: 'slow', delayMs: 1500 });
    await third.connect();
    try {
      await expect(third.request<{ text: string }>(requestTopic, 'echo.say', 'agg-3', { text: 'third' })).resolves.toEqual({ text: 'third' });
    } finally {
      await third.close();
    }
    await expect(inFlight).resolves.toEqual({ text: 'slow' });
  });

  it('turns an error reply into the responder CodedError, and a bug into INTERNAL_ERROR without its message', async () => {
    await expect(requesters[1].request(requestTopic, 'echo.unknown-quote', 'agg-e', { text: 'x' })).rejects.toMatchObject({
      name: 'CodedError',
      code: 'QUOTE_NOT_FOUND',
      details: { quoteId: 'q-1' },
    });
    const bug = await requesters[1].request(requestTopic, 'echo.bug', 'agg-b', { text: 'x' }).catch((e: CodedError) => e);
    expect(bug).toBeInstanceOf(CodedError);
    expect((bug as CodedError).code).toBe('INTERNAL_ERROR');
    expect((bug as CodedError).message).not.toContain('secret');
  });

  it('answers an invalid request with VALIDATION_FAILED and parks a copy on the dead-letter topic', async () => {
    const error = await requesters[0]
      .request(requestTopic, 'echo.say', 'agg-invalid', { text: 42 })
      .catch((e: CodedError) => e);
    expect(error).toMatchObject({ code: 'VALIDATION_FAILED' });
    const parked = await waitFor('the invalid request on the DLQ', () => dlq.messages.find((m) => m.key === 'agg-invalid'));
    expect(parked.headers[DeadLetterHeaders.reason]).toContain('payload.text');
    expect(parked.headers[DeadLetterHeaders.originalTopic]).toBe(requestTopic);
    expect(parked.headers[DeadLetterHeaders.originalOffset]).toMatch(/^\d+$/);
    expect(JSON.parse(parked.value!).payload).toEqual({ text: 42 });
    // The responder goes on answering after the invalid message.
    await expect(requesters[0].request(requestTopic, 'echo.say', 'agg-after', { text: 'after' })).resolves.toEqual({ text: 'after' });
  });

  it('throws SERVICE_UNAVAILABLE when nobody answers in time', async () => {
    const startedAt = Date.now();
    const error = await requesters[0].request(silentTopic, 'echo.say', 'agg-t', { text: 'anyone?' }, { timeoutMs: 1500 }).catch((e) => e);
    expect(error).toMatchObject({ name: 'CodedError', code: 'SERVICE_UNAVAILABLE' });
    expect(Date.now() - startedAt).toBeLessThan(5000);
  });

  it('reconnects after three timeouts in a row, and answers again once it has', async () => {
    const client = new RequestReplyClient(testKafkaSettings('itest-gateway', `recycle-${suffix}`), [requestTopic, silentTopic], { defaultTimeoutMs: 20000 });
    try {
      await client.connect();
      for (let n = 0; n < 2; n++) await client.request(silentTopic, 'echo.say', `agg-r${n}`, { text: 'anyone?' }, { timeoutMs: 800 }).catch(() => undefined);
      expect(client.isReady()).toBe(true);
      await client.request(silentTopic, 'echo.say', 'agg-r2', { text: 'anyone?' }, { timeoutMs: 800 }).catch(() => undefined);
      // The third timeout in a row dropped the client: not ready until the next request reconnects.
      expect(client.isReady()).toBe(false);
      await expect(client.request(requestTopic, 'echo.say', 'agg-r3', { text: 'back' })).resolves.toEqual({ text: 'back' });
      expect(client.isReady()).toBe(true);
    } finally {
      await client.close();
    }
  });

  it('throws SERVICE_UNAVAILABLE when Kafka cannot be reached', async () => {
    const unreachable = new RequestReplyClient({ brokers: ['127.0.0.1:1'], clientId: 'itest-down', instanceId: suffix }, [requestTopic]);
    try {
      const error = await unreachable.request(requestTopic, 'echo.say', 'agg-d', { text: 'x' }, { timeoutMs: 2000 }).catch((e) => e);
      expect(error).toMatchObject({ name: 'CodedError', code: 'SERVICE_UNAVAILABLE' });
      expect(unreachable.isReady()).toBe(false);
    } finally {
      await unreachable.close();
    }
  });
});
