import type { RouteLeg } from '@swapgw/contracts';
import { applySlippage } from '../quote/amounts';
import { swapLegSlippageBps } from '../quote/slippage';
import { ProviderNames } from './provider-names';
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
import { getAmountsOut } from './uniswap-v2-math';
import { afterTax, TokenTaxes, TokenTaxProbe } from './token-tax-probe';

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
  taxes: PathTaxes = {},
): RouteLeg {
  const out = amountOutAfterTaxes(quote, taxes);
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
    ...(taxes.tokenIn ? { sellTaxBps: taxes.tokenIn.sellTaxBps } : {}),
    ...(taxes.tokenOut ? { buyTaxBps: taxes.tokenOut.buyTaxBps } : {}),
    path: quote.path,
    estimatedDurationSeconds: swapDurationSeconds(devnet),
  };
}

/** The measured taxes of a path's two ends: tokenIn's when sold into its pool, tokenOut's when bought. */
export interface PathTaxes {
  tokenIn?: TokenTaxes;
  tokenOut?: TokenTaxes;
}

/**
 * What the recipient receives through `quote` with taxed ends: the pools are paid amountIn less
 * tokenIn's sell tax (re-priced on the same reserves), and the output arrives less tokenOut's buy tax.
 */
export function amountOutAfterTaxes(quote: PathQuote, taxes: PathTaxes): bigint {
  const sellTaxBps = taxes.tokenIn?.sellTaxBps ?? 0;
  const buyTaxBps = taxes.tokenOut?.buyTaxBps ?? 0;
  const amounts =
    sellTaxBps > 0 ? getAmountsOut(afterTax(quote.amounts[0], sellTaxBps), quote.hops) : quote.amounts;
  return afterTax(amounts[amounts.length - 1], buyTaxBps);
}

/** The route warnings the measured taxes call for (`checked`: whether each end that needed a probe got one). */
export function taxWarnings(taxes: PathTaxes, checked: boolean): string[] {
  const ends = [taxes.tokenIn, taxes.tokenOut];
  const warnings: string[] = [];
  if ((taxes.tokenIn?.sellTaxBps ?? 0) > 0 || (taxes.tokenOut?.buyTaxBps ?? 0) > 0)
    warnings.push(RouteWarnings.tokenTaxed);
  if (ends.some((end) => end?.transferRestricted)) warnings.push(RouteWarnings.tokenTransferRestricted);
  if (!checked) warnings.push(RouteWarnings.tokenTaxUnchecked);
  return warnings;
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

/**
 * Why a Uniswap venue that found no path has none: its pools exist but `amountIn` buys less than
 * one base unit of tokenOut (AMOUNT_TOO_LOW with `smallest()`, the least amount that buys one), or
 * uniswapNoRoute's reasons.
 */
export async function uniswapNoPathError(
  venue: string,
  context: QuoteContext,
  weth: string,
  smallest: () => Promise<bigint | undefined>,
): Promise<NoRouteError> {
  const least = await smallest();
  if (least !== undefined && least > context.amountIn) return amountTooLow(venue, context, least);
  return uniswapNoRoute(venue, context.tokenIn, context.tokenOut, weth);
}

/** AMOUNT_TOO_LOW: the pools exist, but `amountIn` buys less than one base unit of tokenOut. */
export function amountTooLow(venue: string, context: QuoteContext, smallest: bigint): NoRouteError {
  const { tokenIn, tokenOut } = context;
  return new NoRouteError(
    'AMOUNT_TOO_LOW',
    `${venue}: the amount of ${tokenIn.symbol} is too small to buy any ${tokenOut.symbol}`,
    { token: tokenIn, minAmount: smallest },
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
    private readonly taxProbe?: TokenTaxProbe,
  ) {}

  applies(context: QuoteContext): boolean {
    return (
      context.fromChain.id === context.toChain.id &&
      this.quoter.deployment(context.fromChain.id) !== undefined
    );
  }

  /**
   * The taxes of the path's ends, each measured through its own pool of the path (the probe is
   * cached per token, so the paths of one quote share it); without a probe, none.
   */
  private async pathTaxes(
    context: QuoteContext,
    quote: PathQuote,
    signal: AbortSignal,
  ): Promise<{ taxes: PathTaxes; checked: boolean }> {
    const probe = this.taxProbe;
    if (!probe) return { taxes: {}, checked: true };
    const recipient = context.recipient;
    const last = quote.path.length - 1;
    const measure = (token: string, pair: string, base: string) =>
      probe.taxesOf({ deployment: quote.deployment, token, pair, base, recipient }, signal);
    const [tokenIn, tokenOut] = await Promise.all([
      measure(quote.path[0], quote.pairs[0], quote.path[1]),
      measure(quote.path[last], quote.pairs[last - 1], quote.path[last - 1]),
    ]);
    return { taxes: { tokenIn, tokenOut }, checked: tokenIn !== undefined && tokenOut !== undefined };
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
    // Pools that exist but give nothing for so little: the amount is too low, not the liquidity.
    if (paths.length === 0 && weth)
      throw await uniswapNoPathError(this.name, context, weth, () =>
        this.quoter.smallestQuotableAmount(chain.id, context.tokenIn, context.tokenOut, signal),
      );
    return Promise.all(
      paths.map(async (quote) => {
        const { taxes, checked } = await this.pathTaxes(context, quote, signal);
        const leg = uniswapLeg(
          chain.id,
          chain.devnet,
          context.tokenIn,
          context.tokenOut,
          quote,
          context.slippageBps,
          taxes,
        );
        return {
          providers: [this.name],
          legs: [leg],
          expectedAmountOut: BigInt(leg.expectedAmountOut),
          estimatedDurationSeconds: leg.estimatedDurationSeconds,
          warnings: [...pathWarnings(quote, this.thresholds), ...taxWarnings(taxes, checked)],
          debug: pathDebug(quote),
        };
      }),
    );
  }
}
