import { Test } from '@nestjs/testing';
import { GlobalClockModule, SystemClock } from '@swapgw/runtime';
import { MessagingModule } from './messaging.module';
import { RequestReplyClient } from './request-reply/request-reply.client';

/** A request-reply client whose connect() fails `failures` times, then succeeds. */
class FlakyRequester {
  attempts = 0;
  closed = false;

  constructor(private failures: number) {}

  async connect(): Promise<void> {
    this.attempts++;
    if (this.failures-- > 0) throw new Error('This server is not the leader for that topic-partition');
  }

  async close(): Promise<void> {
    this.closed = true;
  }
}

async function startWith(requester: FlakyRequester) {
  const moduleRef = await Test.createTestingModule({
    imports: [
      GlobalClockModule.of(new SystemClock()),
      MessagingModule.forRoot({
        clientId: 'lifecycle-test',
        requestTopics: ['quote.requests'],
        settings: { brokers: ['127.0.0.1:1'], clientId: 'lifecycle-test', instanceId: 'i1' },
      }),
    ],
  })
    .overrideProvider(RequestReplyClient)
    .useValue(requester)
    .compile();
  moduleRef.useLogger(false);
  await moduleRef.init();
  return moduleRef;
}

describe('MessagingModule request-reply client start', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('keeps connecting in the background with back-off when the first connection fails', async () => {
    const requester = new FlakyRequester(2);
    const moduleRef = await startWith(requester);
    expect(requester.attempts).toBe(1);
    await jest.advanceTimersByTimeAsync(1000);
    expect(requester.attempts).toBe(2);
    // Second failure: the next attempt waits twice as long.
    await jest.advanceTimersByTimeAsync(1999);
    expect(requester.attempts).toBe(2);
    await jest.advanceTimersByTimeAsync(1);
    expect(requester.attempts).toBe(3);
    // Connected: no more attempts.
    await jest.advanceTimersByTimeAsync(120_000);
    expect(requester.attempts).toBe(3);
    await moduleRef.close();
  });

  it('stops retrying on shutdown', async () => {
    const requester = new FlakyRequester(100);
    const moduleRef = await startWith(requester);
    await moduleRef.close();
    expect(requester.closed).toBe(true);
    await jest.advanceTimersByTimeAsync(120_000);
    expect(requester.attempts).toBe(1);
  });
});
