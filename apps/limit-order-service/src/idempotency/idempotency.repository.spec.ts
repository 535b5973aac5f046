import { fingerprintOf } from './idempotency.repository';

describe('fingerprintOf', () => {
  it('ignores key order and undefined fields, so a retried request matches its first attempt', () => {
    expect(fingerprintOf({ amount: '1', tokenIn: 'WETH', expiresAtMs: undefined })).toBe(
      fingerprintOf({ tokenIn: 'WETH', amount: '1' }),
    );
    expect(fingerprintOf({ route: { b: 1, a: [1, { y: 2, x: 1 }] } })).toBe(
      fingerprintOf({ route: { a: [1, { x: 1, y: 2 }], b: 1 } }),
    );
  });

  it('differs when any value differs, including amount spelling and array order', () => {
    expect(fingerprintOf({ amount: '1' })).not.toBe(fingerprintOf({ amount: '1.0' }));
    expect(fingerprintOf({ path: ['a', 'b'] })).not.toBe(fingerprintOf({ path: ['b', 'a'] }));
    expect(fingerprintOf({ reason: null })).not.toBe(fingerprintOf({}));
  });
});
