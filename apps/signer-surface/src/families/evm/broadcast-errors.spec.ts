import { makeError } from 'ethers';
import { broadcastFailureOf } from './broadcast-errors';

describe('broadcastFailureOf', () => {
  it('reads ethers error codes and node messages', () => {
    expect(broadcastFailureOf(makeError('nonce has already been used', 'NONCE_EXPIRED'))).toBe('nonce-used');
    expect(broadcastFailureOf(makeError('replacement fee too low', 'REPLACEMENT_UNDERPRICED'))).toBe(
      'underpriced',
    );
    expect(broadcastFailureOf(makeError('insufficient funds', 'INSUFFICIENT_FUNDS'))).toBe(
      'insufficient-funds',
    );
    // geth's and anvil's answer when the pool already holds this very transaction
    expect(
      broadcastFailureOf(
        makeError('could not coalesce error', 'UNKNOWN_ERROR', {
          info: { error: { code: -32000, message: 'already known' } },
        }),
      ),
    ).toBe('already-known');
    expect(broadcastFailureOf(makeError('request timeout', 'TIMEOUT'))).toBe('unreachable');
    expect(broadcastFailureOf(new Error('intrinsic gas too low'))).toBe('refused');
  });
});
