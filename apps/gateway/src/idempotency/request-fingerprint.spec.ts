import { requestFingerprint } from './request-fingerprint';
import { resolveIdempotencyKey } from './idempotency-key';
import { CodedError } from '@swapgw/contracts';

describe('requestFingerprint', () => {
  it('is the same for the same body with keys in another order', () => {
    expect(requestFingerprint({ amount: '1', to: 'x' }, { id: '1' })).toBe(
      requestFingerprint({ to: 'x', amount: '1' }, { id: '1' }),
    );
  });

  it('differs when the body or a path parameter differs', () => {
    const base = requestFingerprint({ amount: '1' }, { id: '1' });
    expect(requestFingerprint({ amount: '2' }, { id: '1' })).not.toBe(base);
    expect(requestFingerprint({ amount: '1' }, { id: '2' })).not.toBe(base);
    expect(requestFingerprint({ amount: 1 }, { id: '1' })).not.toBe(base);
  });

  it('is the fingerprint stored records were written with (a change would turn every retry into a conflict)', () => {
    expect(requestFingerprint({ tokenIn: 'WETH', amount: '1' }, { id: 'lo_1' })).toBe(
      'fa88109e8c18937708af10c7dc4a55816c067daf38f969b68120bc3d10cb2345',
    );
  });

  it('treats a missing body as null', () => {
    expect(requestFingerprint(undefined, undefined)).toBe(requestFingerprint(null, {}));
    expect(requestFingerprint(undefined, undefined)).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('resolveIdempotencyKey', () => {
  it('uses a valid header as is', () => {
    expect(resolveIdempotencyKey('abc-1', true)).toEqual({ key: 'abc-1', generated: false });
  });

  it('generates a key when optional and absent', () => {
    const { key, generated } = resolveIdempotencyKey(undefined, false);
    expect(generated).toBe(true);
    expect(key).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers IDEMPOTENCY_KEY_REQUIRED / IDEMPOTENCY_KEY_INVALID', () => {
    const code = (fn: () => unknown): string => {
      try {
        fn();
      } catch (error) {
        return (error as CodedError).code;
      }
      return 'none';
    };
    expect(code(() => resolveIdempotencyKey(undefined, true))).toBe('IDEMPOTENCY_KEY_REQUIRED');
    expect(code(() => resolveIdempotencyKey('bad key', false))).toBe('IDEMPOTENCY_KEY_INVALID');
    expect(code(() => resolveIdempotencyKey(['a', 'b'], false))).toBe('IDEMPOTENCY_KEY_INVALID');
    expect(code(() => resolveIdempotencyKey('', true))).toBe('IDEMPOTENCY_KEY_INVALID');
  });
});
