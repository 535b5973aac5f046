import { handledTypeOf } from './message-handlers';

describe('handledTypeOf', () => {
  const handlers = { 'swap.build': {}, 'swap.cancel': {} };

  it('is the envelope type when a handler knows it', () => {
    expect(handledTypeOf({ type: 'swap.build', payload: {} }, handlers)).toBe('swap.build');
  });

  it('is undefined for an unknown, missing or inherited type, so that the metric label stays bounded', () => {
    expect(handledTypeOf({ type: 'anything-a-producer-made-up' }, handlers)).toBeUndefined();
    expect(handledTypeOf({ type: 'toString' }, handlers)).toBeUndefined();
    expect(handledTypeOf('not json', handlers)).toBeUndefined();
    expect(handledTypeOf(null, handlers)).toBeUndefined();
  });
});
