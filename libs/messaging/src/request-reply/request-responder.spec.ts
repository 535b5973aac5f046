import type { KafkaContext } from '@nestjs/microservices';
import type { ProducerRecord } from 'kafkajs';
import { IsString } from 'class-validator';
import { CodedError } from '@swapgw/contracts';
import { currentRequestContext, ManualClock } from '@swapgw/runtime';
import { DEFAULT_STALE_AFTER_MS, RequestResponder } from './request-responder';

class Greeting {
  @IsString()
  name!: string;
}

const NOW = 1_763_700_000_000;
const TRACEPARENT = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';

/** A KafkaContext as ServerKafka builds it, with a producer that records what it is asked to send. */
function fakeContext(value: unknown, sent: ProducerRecord[]): KafkaContext {
  const message = {
    offset: '41',
    key: 'agg-1',
    value,
    headers: { traceparent: TRACEPARENT, 'x-request-id': 'req-7' },
    timestamp: '0',
    attributes: 0,
  };
  return {
    getMessage: () => message,
    getTopic: () => 'greeting.requests',
    getPartition: () => 2,
    getHeartbeat: () => async () => undefined,
    getProducer: () => ({ send: async (record: ProducerRecord) => void sent.push(record) }),
  } as unknown as KafkaContext;
}

const envelope = (payload: Record<string, unknown>, type = 'greeting.say', occurredAtMs = NOW - 1000) => ({
  eventId: '6f1c1d3e-3b1a-4c47-9a55-0d6f5c1f2a10',
  type,
  version: 1,
  occurredAtMs,
  aggregateId: 'agg-1',
  payload,
});

describe('RequestResponder', () => {
  const clock = new ManualClock(NOW);
  const responder = new RequestResponder('greeter', clock);
  let calls: Greeting[];
  let seenRequestId: string | undefined;
  const handlers = {
    'greeting.say': {
      payload: Greeting,
      handle: (payload: Greeting) => {
        calls.push(payload);
        seenRequestId = currentRequestContext()?.requestId;
        if (payload.name === 'nobody')
          throw new CodedError('QUOTE_NOT_FOUND', 'nobody here', { name: payload.name });
        return { greeting: `hello ${payload.name}` };
      },
    },
  };

  beforeEach(() => {
    clock.atMs = NOW;
    calls = [];
    seenRequestId = undefined;
  });

  it('answers the handler result, run inside the sender request context', async () => {
    const sent: ProducerRecord[] = [];
    await expect(
      responder.respond(envelope({ name: 'ada' }), fakeContext(envelope({ name: 'ada' }), sent), handlers),
    ).resolves.toEqual({
      ok: true,
      data: { greeting: 'hello ada' },
    });
    expect(seenRequestId).toBe('req-7');
    expect(sent).toHaveLength(0);
  });

  it('answers a CodedError with its code', async () => {
    const reply = await responder.respond(envelope({ name: 'nobody' }), fakeContext({}, []), handlers);
    expect(reply).toEqual({
      ok: false,
      error: { code: 'QUOTE_NOT_FOUND', message: 'nobody here', details: { name: 'nobody' } },
    });
  });

  it('answers VALIDATION_FAILED for an invalid payload, without calling the handler, and parks a copy on the DLQ', async () => {
    const sent: ProducerRecord[] = [];
    const invalid = envelope({ name: 42 });
    const reply = await responder.respond(invalid, fakeContext(invalid, sent), handlers);
    expect(reply).toMatchObject({
      ok: false,
      error: { code: 'VALIDATION_FAILED', message: 'invalid payload for greeting.say: payload.name' },
    });
    expect(calls).toHaveLength(0);
    expect(sent).toHaveLength(1);
    expect(sent[0].topic).toBe('greeting.requests.dlq');
    expect(sent[0].messages[0].headers).toMatchObject({
      'x-dlq-reason': 'invalid payload for greeting.say: payload.name',
      'x-original-topic': 'greeting.requests',
      'x-original-partition': '2',
      'x-original-offset': '41',
      'x-dlq-consumer-group': 'greeter',
      'x-dlq-failed-at': new Date(NOW).toISOString(),
    });
  });

  it('answers VALIDATION_FAILED for an unknown type', async () => {
    const sent: ProducerRecord[] = [];
    const reply = await responder.respond(
      envelope({ name: 'x' }, 'greeting.shout'),
      fakeContext({}, sent),
      handlers,
    );
    expect(reply).toMatchObject({
      ok: false,
      error: { code: 'VALIDATION_FAILED', message: 'no handler for type greeting.shout' },
    });
    expect(sent).toHaveLength(1);
  });

  it('skips a request older than staleAfterMs without running the handler', async () => {
    const old = envelope({ name: 'ada' }, 'greeting.say', NOW - 121_000);
    const reply = await responder.respond(old, fakeContext(old, []), handlers);
    expect(reply).toMatchObject({ ok: false, error: { code: 'SERVICE_UNAVAILABLE' } });
    expect(calls).toHaveLength(0);
  });

  it('judges the age of a request by its Clock alone: the same request is handled, then skipped once the clock passes the bound', async () => {
    const request = envelope({ name: 'ada' }, 'greeting.say', NOW);
    clock.atMs = NOW + DEFAULT_STALE_AFTER_MS;
    await expect(responder.respond(request, fakeContext(request, []), handlers)).resolves.toMatchObject({
      ok: true,
    });
    clock.atMs += 1;
    await expect(responder.respond(request, fakeContext(request, []), handlers)).resolves.toEqual({
      ok: false,
      error: {
        code: 'SERVICE_UNAVAILABLE',
        message: 'Request greeting.say expired before it was handled',
        details: { ageMs: DEFAULT_STALE_AFTER_MS + 1 },
      },
    });
    expect(calls).toHaveLength(1);
  });
});
