import { canonicalFingerprint, canonicalJson } from './canonical-json';

describe('canonicalJson', () => {
  it('sorts keys at every depth and drops undefined members', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { z: 1, y: 2 }], c: undefined } })).toBe(
      '{"a":{"d":[1,{"y":2,"z":1}]},"b":1}',
    );
  });

  it('keeps array order and writes undefined array items, and an undefined value, as null', () => {
    expect(canonicalJson([3, undefined, 1])).toBe('[3,null,1]');
    expect(canonicalJson(undefined)).toBe('null');
    expect(canonicalJson('x')).toBe('"x"');
  });
});

describe('canonicalFingerprint', () => {
  it('is the fingerprint stored idempotency records were written with (a change would turn every retry into a conflict)', () => {
    expect(canonicalFingerprint({ amount: '1', tokenIn: 'WETH' })).toBe(
      '0adfb94cd0e9c020f0174648429dd2a46277ebda329888acb659f4129fd66390',
    );
  });

  it('ignores key order and undefined fields, so a retried request matches its first attempt', () => {
    expect(canonicalFingerprint({ amount: '1', tokenIn: 'WETH', expiresAtMs: undefined })).toBe(
      canonicalFingerprint({ tokenIn: 'WETH', amount: '1' }),
    );
    expect(canonicalFingerprint({ route: { b: 1, a: [1, { y: 2, x: 1 }] } })).toBe(
      canonicalFingerprint({ route: { a: [1, { x: 1, y: 2 }], b: 1 } }),
    );
  });

  it('differs when any value differs, including amount spelling and array order', () => {
    expect(canonicalFingerprint({ amount: '1' })).not.toBe(canonicalFingerprint({ amount: '1.0' }));
    expect(canonicalFingerprint({ path: ['a', 'b'] })).not.toBe(canonicalFingerprint({ path: ['b', 'a'] }));
    expect(canonicalFingerprint({ reason: null })).not.toBe(canonicalFingerprint({}));
  });
});
