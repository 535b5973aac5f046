import {
  bearerKeyOf,
  generateApiKey,
  hashApiKey,
  hashesEqual,
  isWellFormedApiKey,
  publicPrefixOf,
} from './api-key';

describe('API keys', () => {
  it('generates sgw_ + 43 base64url characters, a public prefix and its SHA-256', () => {
    const { key, prefix, keyHash } = generateApiKey();
    expect(key).toMatch(/^sgw_[A-Za-z0-9_-]{43}$/);
    expect(prefix).toBe(key.slice(4, 12));
    expect(keyHash).toBe(hashApiKey(key));
    expect(keyHash).toMatch(/^[0-9a-f]{64}$/);
    expect(generateApiKey().key).not.toBe(key);
  });

  it('reads only well-formed Bearer keys', () => {
    const { key } = generateApiKey();
    expect(bearerKeyOf(`Bearer ${key}`)).toBe(key);
    expect(bearerKeyOf(`bearer ${key}`)).toBe(key);
    expect(bearerKeyOf(undefined)).toBeNull();
    expect(bearerKeyOf(`Basic ${key}`)).toBeNull();
    expect(bearerKeyOf(`Bearer ${key} extra`)).toBeNull();
    expect(bearerKeyOf('Bearer sgw_short')).toBeNull();
    expect(bearerKeyOf([`Bearer ${key}`, `Bearer ${key}`])).toBeNull();
    expect(isWellFormedApiKey(key.replace('sgw_', 'xyz_'))).toBe(false);
  });

  it('compares hashes in constant time and only equal 32-byte digests match', () => {
    const a = hashApiKey('sgw_a');
    expect(hashesEqual(a, a)).toBe(true);
    expect(hashesEqual(a, hashApiKey('sgw_b'))).toBe(false);
    expect(hashesEqual(a, 'abcd')).toBe(false);
    expect(publicPrefixOf('sgw_ABCDEFGHxyz')).toBe('ABCDEFGH');
  });
});
