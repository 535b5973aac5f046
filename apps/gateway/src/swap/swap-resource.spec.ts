import { CodedError } from '@swapgw/contracts';
import { decodeSwapCursor, encodeSwapCursor } from './swap-resource';

const position = {
  createdAtMs: 1_764_000_000_000,
  swapId: '1b4e28ba-2fa1-51d2-883f-0016d3cca427',
  status: 'completed',
};

describe('GET /swaps cursor', () => {
  it('round-trips a position with its status filter', () => {
    expect(decodeSwapCursor(encodeSwapCursor(position), 'completed')).toEqual(position);
    const unfiltered = { ...position, status: null };
    expect(decodeSwapCursor(encodeSwapCursor(unfiltered), null)).toEqual(unfiltered);
  });

  it('refuses a cursor of another status filter, and anything it did not write, with INVALID_CURSOR', () => {
    const codeOf = (run: () => unknown): string | undefined => {
      try {
        run();
        return undefined;
      } catch (error) {
        return (error as CodedError).code;
      }
    };
    expect(codeOf(() => decodeSwapCursor(encodeSwapCursor(position), null))).toBe('INVALID_CURSOR');
    expect(codeOf(() => decodeSwapCursor('not-a-cursor', null))).toBe('INVALID_CURSOR');
    expect(codeOf(() => decodeSwapCursor(Buffer.from('[1,"x",null]').toString('base64url'), null))).toBe(
      'INVALID_CURSOR',
    );
  });
});
