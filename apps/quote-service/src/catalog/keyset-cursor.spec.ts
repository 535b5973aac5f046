import { CodedError } from '@swapgw/contracts';
import { decodeCursor, encodeCursor, queryHash } from './keyset-cursor';

const codeOf = (fn: () => unknown): string | undefined => {
  try {
    fn();
  } catch (error) {
    return (error as CodedError).code;
  }
  return undefined;
};

describe('keyset cursor', () => {
  it('round-trips the sort key and last id', () => {
    const hash = queryHash('tokens', { chainRef: 'devnet-a', sort: 'top' });
    const cursor = encodeCursor(hash, [3, 'usdc'], '42');
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(cursor, hash, 2)).toEqual({ sortKey: [3, 'usdc'], lastId: '42' });
  });

  it('hashes equal filters equally whatever their order, and ignores unset ones', () => {
    expect(queryHash('tokens', { a: 1, b: 'x', c: undefined })).toBe(queryHash('tokens', { b: 'x', a: 1 }));
    expect(queryHash('tokens', { supportedOnly: false })).toBe(queryHash('tokens', {}));
    expect(queryHash('tokens', { a: 1 })).not.toBe(queryHash('pairs', { a: 1 }));
    expect(queryHash('tokens', { q: 'usd' })).not.toBe(queryHash('tokens', { q: 'dai' }));
  });

  it('rejects a cursor from another query', () => {
    const cursor = encodeCursor(queryHash('tokens', { q: 'usd' }), ['usdc'], '1');
    expect(codeOf(() => decodeCursor(cursor, queryHash('tokens', { q: 'dai' }), 1))).toBe('INVALID_CURSOR');
  });

  it.each([
    ['garbage!'],
    [Buffer.from('not json').toString('base64url')],
    [Buffer.from(JSON.stringify({ q: 'x', k: [], i: 'abc' })).toString('base64url')],
    [Buffer.from(JSON.stringify({ q: 'x', k: [{}], i: '1' })).toString('base64url')],
    [Buffer.from(JSON.stringify([1, 2])).toString('base64url')],
  ])('rejects malformed cursor %p', (cursor) => {
    expect(codeOf(() => decodeCursor(cursor, 'x', 1))).toBe('INVALID_CURSOR');
  });

  it('rejects a sort key of the wrong length (cursor of another sort)', () => {
    const hash = queryHash('tokens', {});
    expect(codeOf(() => decodeCursor(encodeCursor(hash, ['a', 'b'], '1'), hash, 3))).toBe('INVALID_CURSOR');
  });
});
