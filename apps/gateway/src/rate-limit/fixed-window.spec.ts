import { decide, windowPosition } from './fixed-window';

describe('fixed window', () => {
  it('aligns windows on multiples of their length and counts seconds to the next one', () => {
    expect(windowPosition(60_000 * 10 + 15_500, 60)).toEqual({ windowStartMs: 600_000, resetSeconds: 45 });
    expect(windowPosition(600_000, 60)).toEqual({ windowStartMs: 600_000, resetSeconds: 60 });
    expect(windowPosition(659_999, 60)).toEqual({ windowStartMs: 600_000, resetSeconds: 1 });
  });

  it('allows up to the limit and reports what remains', () => {
    expect(decide(1, 3, 10)).toEqual({ allowed: true, limit: 3, remaining: 2, resetSeconds: 10 });
    expect(decide(3, 3, 10)).toEqual({ allowed: true, limit: 3, remaining: 0, resetSeconds: 10 });
    expect(decide(4, 3, 10)).toEqual({ allowed: false, limit: 3, remaining: 0, resetSeconds: 10 });
  });
});
