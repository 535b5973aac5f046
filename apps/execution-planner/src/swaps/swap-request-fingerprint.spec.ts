import type { SwapBuildRequest } from '@swapgw/contracts';
import { isSameSwapRequest, swapRequestFingerprint } from './swap-request-fingerprint';

const BASE: SwapBuildRequest = {
  swapId: '0b1f3c1e-8a43-5e0f-9c43-6a1d8f1f2c11',
  owner: 'key_alice',
  quoteId: 'q_1',
  routeId: 'r_1',
  userAddress: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
} as SwapBuildRequest;
const WITH_PERMIT2 = {
  ...BASE,
  recipient: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
  gasPayment: 'sponsored',
  permit2: { nonce: '7', deadline: 1795852276, signature: `0x${'ab'.repeat(65)}` },
} as SwapBuildRequest;

// Stored by the planner before it used the suite's canonical fingerprint (computed with that code).
const STORED_BEFORE = {
  base: '385e0638c8e29126be7d482cc00846b6294e7fc3a3a73a2788685c53f3ef97f3',
  withPermit2: '6717653331695c73ca2ae1400c4bd8bb7b5430fa12a2ca8e86c6a9f38f0fa6cb',
};

describe('swap request fingerprint', () => {
  it('is the same for a retry, whatever the order of its fields or the letter case of its addresses', () => {
    const reordered = Object.fromEntries(Object.entries(WITH_PERMIT2).reverse()) as SwapBuildRequest;
    const lowerCase = {
      ...WITH_PERMIT2,
      userAddress: WITH_PERMIT2.userAddress.toLowerCase(),
      recipient: WITH_PERMIT2.recipient!.toLowerCase(),
    };

    const stored = swapRequestFingerprint(WITH_PERMIT2);

    expect(stored).toMatch(/^canonical-json:[0-9a-f]{64}$/);
    expect(isSameSwapRequest(stored, reordered)).toBe(true);
    expect(isSameSwapRequest(stored, lowerCase)).toBe(true);
    expect(isSameSwapRequest(stored, { ...WITH_PERMIT2, swapId: 'another id, same key' })).toBe(true);
  });

  it('tells apart requests that differ in any term that shapes the swap', () => {
    const stored = swapRequestFingerprint(WITH_PERMIT2);
    const others: Array<Partial<SwapBuildRequest>> = [
      { owner: 'key_bob' },
      { quoteId: 'q_2' },
      { routeId: 'r_2' },
      { userAddress: '0x90F79bf6EB2c4f870365E785982E1f101E93b906' },
      { recipient: undefined },
      { gasPayment: 'user' },
      { permit2: { ...WITH_PERMIT2.permit2!, nonce: '8' } },
      { permitType: 'eip2612' } as Partial<SwapBuildRequest>,
    ];

    for (const change of others)
      expect({ change, same: isSameSwapRequest(stored, { ...WITH_PERMIT2, ...change }) }).toEqual({
        change,
        same: false,
      });
  });

  it('still recognises retries of swaps stored before the change, and still refuses other requests on them', () => {
    expect(isSameSwapRequest(STORED_BEFORE.base, BASE)).toBe(true);
    expect(isSameSwapRequest(STORED_BEFORE.withPermit2, WITH_PERMIT2)).toBe(true);
    expect(isSameSwapRequest(STORED_BEFORE.base, { ...BASE, routeId: 'r_2' })).toBe(false);
    expect(isSameSwapRequest(STORED_BEFORE.withPermit2, { ...WITH_PERMIT2, gasPayment: 'user' })).toBe(false);
  });
});
