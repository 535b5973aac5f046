import { permit2NonceBit, randomPermit2Nonce } from './permit2-nonces';

describe('sponsored intents: Permit2 nonces', () => {
  it('random nonces fit 248 bits and do not repeat; permit2NonceBit names the bitmap word and bit', () => {
    const nonces = Array.from({ length: 50 }, () => randomPermit2Nonce());
    expect(new Set(nonces).size).toBe(50);
    nonces.forEach((nonce) => expect(nonce < 1n << 248n && nonce >= 0n).toBe(true));
    expect(permit2NonceBit((1n << 8n) + 3n)).toEqual({ wordPos: 1n, mask: 8n });
    expect(permit2NonceBit('7')).toEqual({ wordPos: 0n, mask: 128n });
  });
});
