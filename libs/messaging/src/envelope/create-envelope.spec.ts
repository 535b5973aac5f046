import { createEnvelope } from './create-envelope';

describe('createEnvelope', () => {
  it('builds an envelope with a v4 eventId, the clock time and version 1 by default', () => {
    const envelope = createEnvelope(
      'swap.created',
      'swap-1',
      { amount: '1.5' },
      undefined,
      () => 1_763_700_000_000,
    );
    expect(envelope).toEqual({
      eventId: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
      type: 'swap.created',
      version: 1,
      occurredAtMs: 1_763_700_000_000,
      aggregateId: 'swap-1',
      payload: { amount: '1.5' },
    });
  });

  it('gives every envelope its own eventId', () => {
    const ids = new Set(Array.from({ length: 100 }, () => createEnvelope('t', 'a', {}).eventId));
    expect(ids.size).toBe(100);
  });

  it('refuses a missing type or aggregateId and a version below 1', () => {
    expect(() => createEnvelope('', 'a', {})).toThrow(/type/);
    expect(() => createEnvelope('t', '', {})).toThrow(/aggregateId/);
    expect(() => createEnvelope('t', 'a', {}, 0)).toThrow(/version/);
    expect(() => createEnvelope('t', 'a', {}, 1.5)).toThrow(/version/);
  });
});
