import type { RoutePlan, SwapBuildRequest } from '@swapgw/contracts';

export const USER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
export const OTHER_USER = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';
export const USDC = '0x' + '11'.repeat(20);
export const WETH = '0x' + '22'.repeat(20);
export const ROUTER = '0x' + 'a1'.repeat(20);
export const NOW_MS = 1_800_000_000_000;

/** A one-leg Uniswap V2 route USDC → WETH on `chain`: an approve step, then the swap. */
export function planFor(quoteId: string, chain = 'devnet-a', expiresAtMs = NOW_MS + 60_000): RoutePlan {
  const tokenIn = { chain, symbol: 'USDC', address: USDC, decimals: 6 };
  const tokenOut = { chain, symbol: 'WETH', address: WETH, decimals: 18 };
  const amounts = { amountIn: '1500000', expectedAmountOut: '500000000000000' };
  return {
    quoteId,
    routeId: 'r1',
    expiresAtMs,
    fromChain: chain,
    toChain: chain,
    tokenIn,
    tokenOut,
    ...amounts,
    slippageBps: 50,
    providers: ['uniswap-v2'],
    legs: [
      {
        kind: 'swap',
        chain,
        provider: 'uniswap-v2',
        tokenIn,
        tokenOut,
        ...amounts,
        minAmountOut: '497500000000000',
        spender: ROUTER,
        path: [USDC, WETH],
        estimatedDurationSeconds: 15,
      },
    ],
  };
}

/** alice's build of `plan` as the gateway sends it. */
export function buildRequestFor(plan: RoutePlan, swapId: string): SwapBuildRequest {
  return { swapId, owner: 'alice', quoteId: plan.quoteId, routeId: plan.routeId, userAddress: USER, plan };
}

/** The reference of step `stepIndex` of a swap in signer-surface's events. */
export const stepRef = (swapId: string, stepIndex: number, chain = 'devnet-a') => ({
  swapId,
  stepId: `${swapId}:${stepIndex}`,
  stepIndex,
  chain,
});
