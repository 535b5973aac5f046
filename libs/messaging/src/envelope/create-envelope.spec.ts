import { ManualClock } from '@swapgw/runtime';
import { createEnvelope } from './create-envelope';

describe('createEnvelope', () => {
  const clock = new ManualClock(1_763_700_000_000);

  it('builds an envelope with a v4 eventId, the clock time and version 1 by default', () => {
    const envelope = createEnvelope('swap.created', 'swap-1', { amount: '1.5' }, clock);
    expect(envelope).toEqual({
      eventId: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
      type: 'swap.created',
      version: 1,
      occurredAtMs: 1_763_700_000_000,
      aggregateId: 'swap-1',
      payload: { amount: '1.5' },
    });
  });

  it("stamps whatever time the clock is set to, not the machine's", () => {
    const moved = new ManualClock(Date.UTC(2030, 0, 1));
    expect(createEnvelope('t', 'a', {}, moved, 2)).toMatchObject({
      version: 2,
      occurredAtMs: Date.UTC(2030, 0, 1),
    });
    moved.atMs += 1234;
    expect(createEnvelope('t', 'a', {}, moved).occurredAtMs).toBe(Date.UTC(2030, 0, 1) + 1234);
  });

  it('gives every envelope its own eventId', () => {
    const ids = new Set(Array.from({ length: 100 }, () => createEnvelope('t', 'a', {}, clock).eventId));
    expect(ids.size).toBe(100);
  });

  it('refuses a missing type or aggregateId and a version below 1', () => {
    expect(() => createEnvelope('', 'a', {}, clock)).toThrow(/type/);
    expect(() => createEnvelope('t', '', {}, clock)).toThrow(/aggregateId/);
    expect(() => createEnvelope('t', 'a', {}, clock, 0)).toThrow(/version/);
    expect(() => createEnvelope('t', 'a', {}, clock, 1.5)).toThrow(/version/);
  });
});
