import type { ChainDescriptor } from '@swapgw/chains';
import type { RouteLeg, TokenRef } from '@swapgw/contracts';

/** A token resolved for quoting: a TokenRef plus the Solana mint when there is one. */
export interface QuoteToken extends TokenRef {
  mint?: string | null;
}

/** One recipient's fee in base units of the input token. */
export interface IntegratorFeeCharge {
  recipient: string;
  bps: number;
  amount: bigint;
  /**
   * The recipient is a THORName or thor1 address, not an address of the source chain: only a
   * provider that `paysThorchainAffiliates` (THORChain, through its memo's affiliate fields) can pay it.
   */
  thorchainAffiliate?: true;
}

/** What every provider is asked: one resolved request. */
export interface QuoteContext {
  fromChain: ChainDescriptor;
  toChain: ChainDescriptor;
  tokenIn: QuoteToken;
  tokenOut: QuoteToken;
  amountIn: bigint;
  /** The request's slippage; undefined = automatic per swap leg (quote/slippage.ts). */
  slippageBps?: number;
  recipient?: string;
  /**
   * The request's integrator fee, for the aggregators that take it in their own transaction (0x,
   * LI.FI, Jupiter's platform fee): they are asked to swap `grossAmountIn` with the fee, not
   * `amountIn` (the input net of the fee, which every other provider quotes while the gateway pays
   * the fee), and report what their transaction takes in CandidateRoute `integratorFee`.
   */
  integratorFee?: ProviderIntegratorFee;
}

export interface ProviderIntegratorFee {
  grossAmountIn: bigint;
  charges: IntegratorFeeCharge[];
}

/** A candidate route as a provider proposes it; quote-service ranks, names and stores it. */
export interface CandidateRoute {
  providers: string[];
  bridgeProvider?: string;
  legs: RouteLeg[];
  expectedAmountOut: bigint;
  estimatedDurationSeconds: number;
  warnings: string[];
  /**
   * The integrator fee the provider's own transaction takes, as the provider reported it (one per
   * requested recipient, same order): set only by an aggregator that was asked the fee and carries
   * it; the route's first transaction then spends the gross amount (the plan marks the fee
   * `collectedBy: 'aggregator'`) and the gateway adds no fee transfer.
   */
  integratorFee?: IntegratorFeeCharge[];
  /** Provider-specific detail for `debug` (price impact, pools, upstream ids...). */
  debug?: Record<string, unknown>;
}

/**
 * A source of routes. `applies` is cheap and synchronous (does this provider cover the chains at
 * all?); `quote` may do I/O and must honour `signal`. With no route it throws a NoRouteError saying
 * why (its reason is the quote's `unavailableRoutes[].reason`); an answer of [] reads as
 * NO_LIQUIDITY. Throwing anything else means the provider failed (counted towards
 * QUOTE_UPSTREAM_FAILED, shown as PROVIDER_UNAVAILABLE).
 */
export interface QuoteProvider {
  readonly name: string;
  /**
   * Whether the provider pays integrator fees whose recipient is a THORChain affiliate (a charge's
   * `thorchainAffiliate`); any other provider is not asked such a quote (INTEGRATOR_FEE_NOT_SUPPORTED).
   */
  readonly paysThorchainAffiliates?: boolean;
  applies(context: QuoteContext): boolean;
  quote(context: QuoteContext, signal: AbortSignal): Promise<CandidateRoute[]>;
}

export interface RouteWarningThresholds {
  priceImpactBps: number;
  thinLiquidityBps: number;
}

export const RouteWarnings = {
  highPriceImpact: 'HIGH_PRICE_IMPACT',
  thinLiquidity: 'THIN_LIQUIDITY',
  /** A hop takes half or more of a pool's output side: the input is as large as the pool (or larger). */
  exceedsLiquidity: 'AMOUNT_EXCEEDS_LIQUIDITY',
  /** The request's amount is a whole number worth a token or more in base units (amountLooksLikeBaseUnits). */
  amountLooksLikeBaseUnits: 'AMOUNT_LOOKS_LIKE_BASE_UNITS',
  /** A token of the route keeps a share of each buy or sell (`buyTaxBps`, `sellTaxBps`), measured on chain. */
  tokenTaxed: 'TOKEN_TAXED',
  /** Buying, selling or transferring a token of the route to the recipient reverted in the on-chain probe. */
  tokenTransferRestricted: 'TOKEN_TRANSFER_RESTRICTED',
  /** A token of the route is not vouched for and its taxes could not be measured. */
  tokenTaxUnchecked: 'TOKEN_TAX_UNCHECKED',
} as const;

/** A hop's share of a pool's output side from which the route is flagged AMOUNT_EXCEEDS_LIQUIDITY. */
export const EXCEEDS_LIQUIDITY_SHARE_BPS = 5000;
