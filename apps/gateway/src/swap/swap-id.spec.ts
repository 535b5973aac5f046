import { swapIdOf } from './swap-id';

describe('swapIdOf', () => {
  it('is a UUID v5 that a retry with the same owner and key maps to again', () => {
    const id = swapIdOf('alice', 'key-1');
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(swapIdOf('alice', 'key-1')).toBe(id);
  });

  it('differs per owner and per key, and the separator keeps "ab"+"c" apart from "a"+"bc"', () => {
    const ids = new Set([
      swapIdOf('alice', 'key-1'),
      swapIdOf('bob', 'key-1'),
      swapIdOf('alice', 'key-2'),
      swapIdOf('ab', 'c'),
      swapIdOf('a', 'bc'),
    ]);
    expect(ids.size).toBe(5);
  });
});
