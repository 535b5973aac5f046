import type { RouteLeg } from '@swapgw/contracts';
import { applySlippage } from '../quote/amounts';
import { swapLegSlippageBps } from '../quote/slippage';
import { ProviderNames } from '../catalog/support-policy';
import {
  CandidateRoute,
  QuoteContext,
  QuoteProvider,
  QuoteToken,
  EXCEEDS_LIQUIDITY_SHARE_BPS,
  RouteWarnings,
  RouteWarningThresholds,
} from './quote-provider';
import { NoRouteError } from './no-route.error';
import { PathQuote, UniswapV2Quoter } from './uniswap-v2-quoter';

/** Seconds until a swap on the chain is final enough to act on: devnets mine at once. */
export function swapDurationSeconds(devnet: boolean): number {
  return devnet ? 5 : 30;
}

/**
 * The one swap leg a priced Uniswap V2 path executes as, its minimum at the requested slippage or,
 * without one, at the automatic slippage of its price impact and pool share.
 */
export function uniswapLeg(
  chain: string,
  devnet: boolean,
  tokenIn: QuoteToken,
  tokenOut: QuoteToken,
  quote: PathQuote,
  requestedSlippageBps: number | undefined,
): RouteLeg {
  const out = quote.amounts[quote.amounts.length - 1];
  const slippageBps = swapLegSlippageBps(requestedSlippageBps, {
    priceImpactBps: quote.priceImpactBps,
    poolShareBps: quote.maxReserveShareBps,
  });
  return {
    kind: 'swap',
    chain,
    provider: ProviderNames.uniswapV2,
    tokenIn: { chain, symbol: tokenIn.symbol, address: tokenIn.address, decimals: tokenIn.decimals },
    tokenOut: { chain, symbol: tokenOut.symbol, address: tokenOut.address, decimals: tokenOut.decimals },
    amountIn: quote.amounts[0].toString(),
    expectedAmountOut: out.toString(),
    minAmountOut: applySlippage(out, slippageBps).toString(),
    slippageBps,
    spender: quote.deployment.router,
    path: quote.path,
    estimatedDurationSeconds: swapDurationSeconds(devnet),
  };
}

/**
 * Why a Uniswap venue has no path: the native coin and its wrapped token are a wrap, not a swap
 * (PAIR_NOT_SUPPORTED); otherwise no pool connects the tokens, directly or through WETH, with an
 * output for the amount (NO_LIQUIDITY).
 */
export function uniswapNoRoute(
  venue: string,
  tokenIn: QuoteToken,
  tokenOut: QuoteToken,
  weth: string,
): NoRouteError {
  const addressOf = (token: QuoteToken) => (token.address ?? weth).toLowerCase();
  if (addressOf(tokenIn) === addressOf(tokenOut))
    return new NoRouteError(
      'PAIR_NOT_SUPPORTED',
      `${venue}: ${tokenIn.symbol} → ${tokenOut.symbol} is a wrap, not a swap`,
    );
  return new NoRouteError(
    'NO_LIQUIDITY',
    `${venue}: no pool connects ${tokenIn.symbol} and ${tokenOut.symbol} with an output for this amount`,
  );
}

export function pathWarnings(quote: PathQuote, thresholds: RouteWarningThresholds): string[] {
  const warnings: string[] = [];
  if (quote.priceImpactBps > thresholds.priceImpactBps) warnings.push(RouteWarnings.highPriceImpact);
  if (quote.maxReserveShareBps > thresholds.thinLiquidityBps) warnings.push(RouteWarnings.thinLiquidity);
  if (quote.maxReserveShareBps >= EXCEEDS_LIQUIDITY_SHARE_BPS) warnings.push(RouteWarnings.exceedsLiquidity);
  return warnings;
}

export function pathDebug(quote: PathQuote): Record<string, unknown> {
  return {
    path: quote.path,
    pairs: quote.pairs,
    amounts: quote.amounts.map(String),
    priceImpactBps: quote.priceImpactBps,
    maxReserveShareBps: quote.maxReserveShareBps,
  };
}

/** Same-chain swaps on Uniswap V2: the direct pool and the hop through WETH, each a route. */
export class UniswapV2Provider implements QuoteProvider {
  readonly name = ProviderNames.uniswapV2;

  constructor(
    private readonly quoter: UniswapV2Quoter,
    private readonly thresholds: RouteWarningThresholds,
  ) {}

  applies(context: QuoteContext): boolean {
    return (
      context.fromChain.id === context.toChain.id &&
      this.quoter.deployment(context.fromChain.id) !== undefined
    );
  }

  async quote(context: QuoteContext, signal: AbortSignal): Promise<CandidateRoute[]> {
    const chain = context.fromChain;
    const paths = await this.quoter.quotePaths(
      chain.id,
      context.tokenIn,
      context.tokenOut,
      context.amountIn,
      signal,
    );
    const weth = this.quoter.deployment(chain.id)?.weth;
    if (paths.length === 0 && weth) throw uniswapNoRoute(this.name, context.tokenIn, context.tokenOut, weth);
    return paths.map((quote) => {
      const leg = uniswapLeg(
        chain.id,
        chain.devnet,
        context.tokenIn,
        context.tokenOut,
        quote,
        context.slippageBps,
      );
      return {
        providers: [this.name],
        legs: [leg],
        expectedAmountOut: quote.amounts[quote.amounts.length - 1],
        estimatedDurationSeconds: leg.estimatedDurationSeconds,
        warnings: pathWarnings(quote, this.thresholds),
        debug: pathDebug(quote),
      };
    });
  }
}
