import { ManualClock } from '@swapgw/runtime';
import { deadLetterMessage, DeadLetterHeaders } from './dead-letter';

describe('deadLetterMessage', () => {
  const source = {
    topic: 'swap.events',
    partition: 4,
    offset: '1234',
    key: 'swap-1',
    value: { type: 'swap.created', payload: {} },
    headers: {
      traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
      'x-request-id': ['req-1'],
    },
  };

  it('goes to <topic>.dlq with the same key, the value as JSON and the reason headers', () => {
    const { topic, message } = deadLetterMessage(
      source,
      'invalid envelope: eventId',
      'execution-planner',
      Date.UTC(2026, 0, 1),
    );
    expect(topic).toBe('swap.events.dlq');
    expect(message.key).toBe('swap-1');
    expect(JSON.parse(message.value as string)).toEqual(source.value);
    expect(message.headers).toEqual({
      traceparent: source.headers.traceparent,
      'x-request-id': 'req-1',
      [DeadLetterHeaders.reason]: 'invalid envelope: eventId',
      [DeadLetterHeaders.originalTopic]: 'swap.events',
      [DeadLetterHeaders.originalPartition]: '4',
      [DeadLetterHeaders.originalOffset]: '1234',
      [DeadLetterHeaders.consumerGroup]: 'execution-planner',
      [DeadLetterHeaders.failedAt]: '2026-01-01T00:00:00.000Z',
    });
  });

  it("says it failed at the time given (the caller's Clock), not the machine's", () => {
    const clock = new ManualClock(Date.UTC(2031, 5, 15, 12, 30));
    const { message } = deadLetterMessage(source, 'r', 'g', clock.nowMs());
    expect(message.headers![DeadLetterHeaders.failedAt]).toBe('2031-06-15T12:30:00.000Z');
  });

  it('keeps a value that is not JSON as it arrived and truncates very long reasons', () => {
    const { message } = deadLetterMessage({ ...source, value: 'not json' }, 'x'.repeat(5000), 'g', 0);
    expect(message.value).toBe('not json');
    expect((message.headers![DeadLetterHeaders.reason] as string).length).toBe(1000);
  });

  it('keeps a null value (tombstone) as null', () => {
    expect(deadLetterMessage({ ...source, value: null }, 'r', 'g', 0).message.value).toBeNull();
  });
});
