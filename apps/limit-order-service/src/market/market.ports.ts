import type { RoutePlan } from '@swapgw/contracts';
import { FillQuote } from './fill-search';

export interface TokenInfo {
  chain: string;
  symbol: string;
  decimals: number;
}

/** Token decimals from the catalog (quote-service). Throws UNKNOWN_TOKEN / UNKNOWN_CHAIN (400). */
export abstract class TokenDirectory {
  abstract resolve(chain: string, symbol: string): Promise<TokenInfo>;
}

/** What a live quote needs to know about an order. */
export interface QuoteTerms {
  owner: string;
  fromChain: string;
  toChain: string;
  tokenIn: string;
  tokenOut: string;
  tokenInDecimals: number;
  network?: string | null;
  slippageBps?: number | null;
  recipient?: string | null;
}

/** Live quotes from quote-service: the best route's expected output for an amount, in base units. */
export abstract class MarketQuoter {
  abstract quote(terms: QuoteTerms, amountIn: bigint): Promise<FillQuote | null>;
}

export interface SwapBuildOrder {
  swapId: string;
  owner: string;
  quoteId: string;
  routeId: string;
  /** The route's executable plan from the quote: the planner plans from it. */
  plan: RoutePlan;
  /** The wallet that signs: the order's recipient (see README "Triggering"). */
  userAddress: string;
  recipient?: string;
}

/** Builds a swap for the owner through execution-planner (`swap.build`, idempotent on swapId). */
export abstract class SwapBuilder {
  abstract build(order: SwapBuildOrder): Promise<{ swapId: string }>;
}
