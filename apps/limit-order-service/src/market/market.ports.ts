import type { TermsChain } from '@swapgw/chains';
import type { RoutePlan } from '@swapgw/contracts';
import { FillQuote } from './fill-search';

export interface TokenInfo {
  chain: string;
  symbol: string;
  decimals: number;
}

/**
 * Chains and tokens as quote-service's catalog lists them (GET /chains, GET /tokens): what the
 * terms check of a new order looks up. Undefined when the catalog does not list it; the verdict
 * (UNKNOWN_CHAIN, UNKNOWN_TOKEN) is the shared terms check's, not the directory's.
 */
export abstract class CatalogDirectory {
  abstract chain(id: string): Promise<TermsChain | undefined>;
  abstract token(chain: string, symbol: string): Promise<TokenInfo | undefined>;
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
