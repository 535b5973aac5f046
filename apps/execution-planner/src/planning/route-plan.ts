/**
 * The route plan quote-service stores per route and answers on `quote.requests` type
 * `quote.route.get` {quoteId, routeId}. Shape agreed in the team conventions; mirrored here with
 * only what the planner reads.
 */
export interface TokenRef {
  chain: string;
  symbol: string;
  /** null = the chain's native coin (ETH). */
  address: string | null;
  decimals: number;
}

export interface PrebuiltCall {
  to: string;
  data: string;
  value: string;
}

export interface RouteLeg {
  kind: 'swap' | 'bridge';
  chain: string;
  provider: string;
  tokenIn: TokenRef;
  tokenOut: TokenRef;
  /** Base units (integer decimal strings). */
  amountIn: string;
  expectedAmountOut: string;
  /** Slippage applied. */
  minAmountOut: string;
  /** Contract that pulls tokenIn: the router of a swap leg, the bridge of a bridge leg. */
  spender: string;
  destinationChain?: string;
  /** Uniswap V2 path of token addresses (WETH stands in for native ETH). */
  path?: string[];
  /** Prebuilt by an aggregator: used as-is. */
  call?: PrebuiltCall;
  estimatedDurationSeconds: number;
}

export interface RoutePlan {
  quoteId: string;
  routeId: string;
  expiresAtMs: number;
  fromChain: string;
  toChain: string;
  tokenIn: TokenRef;
  tokenOut: TokenRef;
  amountIn: string;
  expectedAmountOut: string;
  slippageBps: number;
  recipient?: string;
  providers: string[];
  bridgeProvider?: string;
  legs: RouteLeg[];
}
