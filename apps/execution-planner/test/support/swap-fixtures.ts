import type { RoutePlan, SigningPayload, SwapBuildRequest } from '@swapgw/contracts';

export const USER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
export const OTHER_USER = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';
export const USDC = '0x' + '11'.repeat(20);
export const WETH = '0x' + '22'.repeat(20);
export const ROUTER = '0x' + 'a1'.repeat(20);
export const NOW_MS = 1_800_000_000_000;

/** An EVM payload as signer-surface issues one (its figures do not matter to the planner). */
export const EVM_PAYLOAD: SigningPayload = {
  type: 'evm-transaction',
  transaction: {
    chainId: '31337',
    from: USER,
    to: ROUTER,
    data: '0x',
    value: '0',
    nonce: '0',
    gasLimit: '1',
    maxFeePerGas: '1',
    maxPriorityFeePerGas: '1',
  },
};

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

/**
 * A cross-chain route: USDC bridged from devnet-a to devnet-b (approve, deposit), then swapped to
 * WETH there through Uniswap V2 (approve, swap): the swap leg spends after the bridge arrives.
 */
export function crossChainPlanFor(quoteId: string, expiresAtMs = NOW_MS + 60_000): RoutePlan {
  const usdcA = { chain: 'devnet-a', symbol: 'USDC', address: USDC, decimals: 6 };
  const usdcB = { chain: 'devnet-b', symbol: 'USDC', address: USDC, decimals: 6 };
  const wethB = { chain: 'devnet-b', symbol: 'WETH', address: WETH, decimals: 18 };
  return {
    quoteId,
    routeId: 'r1',
    expiresAtMs,
    fromChain: 'devnet-a',
    toChain: 'devnet-b',
    tokenIn: usdcA,
    tokenOut: wethB,
    amountIn: '1500000',
    expectedAmountOut: '500000000000000',
    slippageBps: 50,
    providers: ['devnet-bridge', 'uniswap-v2'],
    legs: [
      {
        kind: 'bridge',
        chain: 'devnet-a',
        provider: 'devnet-bridge',
        tokenIn: usdcA,
        tokenOut: usdcB,
        amountIn: '1500000',
        expectedAmountOut: '1498500',
        minAmountOut: '1498500',
        spender: ROUTER,
        destinationChain: 'devnet-b',
        estimatedDurationSeconds: 30,
      },
      {
        kind: 'swap',
        chain: 'devnet-b',
        provider: 'uniswap-v2',
        tokenIn: usdcB,
        tokenOut: wethB,
        amountIn: '1498500',
        expectedAmountOut: '500000000000000',
        minAmountOut: '497500000000000',
        spender: ROUTER,
        path: [USDC, WETH],
        estimatedDurationSeconds: 15,
      },
    ],
  };
}
