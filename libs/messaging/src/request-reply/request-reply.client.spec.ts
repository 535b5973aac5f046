import { NEVER, Observable } from 'rxjs';
import { MessageEnvelope } from '@swapgw/contracts';
import { ManualClock } from '@swapgw/runtime';
import { RequestReplyClient } from './request-reply.client';

const T0 = 1_763_700_000_000;
const settings = { brokers: ['127.0.0.1:1'], clientId: 'gateway', instanceId: 'g-1' };

/**
 * A client whose Kafka side is a stand-in that is connected, alive, and never answers: what a
 * request decides then (how long it waits, what it stamps) is up to the client's Clock alone.
 */
function silentClient(clock: ManualClock): { client: RequestReplyClient; sent: MessageEnvelope<unknown>[] } {
  const sent: MessageEnvelope<unknown>[] = [];
  const client = new RequestReplyClient(settings, ['echo.requests'], clock);
  const kafka = {
    joinedGroup: true,
    liveness: { deadReason: () => null },
    send: (_topic: string, message: { value: MessageEnvelope<unknown> }): Observable<never> => {
      sent.push(message.value);
      return NEVER;
    },
  };
  (client as unknown as { client: typeof kafka }).client = kafka;
  return { client, sent };
}

describe('RequestReplyClient and its Clock', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('stamps the request with the clock time and waits longer until the clock, not the timers, says the bound passed', async () => {
    const clock = new ManualClock(T0);
    const { client, sent } = silentClient(clock);
    let outcome: unknown;
    const request = client
      .request(
        'echo.requests',
        'echo.say',
        'agg-1',
        { text: 'hi' },
        {
          timeoutMs: 1_000,
          waitLonger: { stillWaiting: () => true, upToMs: 5_000 },
        },
      )
      .then(
        () => (outcome = 'answered'),
        (error: unknown) => (outcome = error),
      );
    await jest.advanceTimersByTimeAsync(0);
    expect(sent.map((envelope) => envelope.occurredAtMs)).toEqual([T0]);

    // The timers run for a minute, but by the clock no time passed: the request is still waiting.
    await jest.advanceTimersByTimeAsync(60_000);
    expect(outcome).toBeUndefined();

    clock.atMs += 4_999;
    await jest.advanceTimersByTimeAsync(1_000);
    expect(outcome).toBeUndefined();

    clock.atMs += 1;
    await jest.advanceTimersByTimeAsync(1_000);
    await request;
    expect(outcome).toMatchObject({
      name: 'CodedError',
      code: 'SERVICE_UNAVAILABLE',
      message: 'No answer to echo.say within 5000 ms',
    });
  });
});
