import type { TermsChain } from '@swapgw/chains';
import type { RoutePlan } from '@swapgw/contracts';
import type { EntityManager } from 'typeorm';
import { FillQuote } from '../orders/fill-search';

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
  /** When the order was triggered (ms): the quote's expiry is judged against it. */
  acceptedAtMs: number;
}

/**
 * Orders a swap's build from execution-planner: the durable `swap.build` command on swap.commands
 * (idempotent on swapId), written to the outbox in the caller's transaction, so that an order is
 * triggered if and only if its swap's build is on its way. The planner's verdict (a swap ready to
 * sign, or failed with the reason a build answers) reaches the swap's status, not the order's.
 */
export abstract class SwapBuildCommands {
  abstract enqueue(manager: EntityManager, order: SwapBuildOrder): Promise<void>;
}
