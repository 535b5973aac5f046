import type { RouteLeg } from '@swapgw/contracts';
import { ProviderNames } from './provider-names';
import { applySlippage } from '../quote/amounts';
import { swapLegSlippageBps } from '../quote/slippage';
import {
  CandidateRoute,
  QuoteContext,
  QuoteProvider,
  QuoteToken,
  RouteWarnings,
  RouteWarningThresholds,
} from './quote-provider';
import { swapDurationSeconds, uniswapNoPathError } from './uniswap-v2.provider';
import { UniswapV3Quoter, V3PathQuote } from './uniswap-v3-quoter';
import type { TaxedTokenGuard } from './taxed-token-guard';

/**
 * The one swap leg a priced Uniswap V3 path executes as: SwapRouter02 `exactInput`, its minimum at
 * the requested slippage or, without one, at the automatic slippage of its price impact.
 */
export function uniswapV3Leg(
  chain: string,
  devnet: boolean,
  tokenIn: QuoteToken,
  tokenOut: QuoteToken,
  quote: V3PathQuote,
  requestedSlippageBps: number | undefined,
): RouteLeg {
  const slippageBps = swapLegSlippageBps(requestedSlippageBps, { priceImpactBps: quote.priceImpactBps });
  return {
    kind: 'swap',
    chain,
    provider: ProviderNames.uniswapV3,
    tokenIn: { chain, symbol: tokenIn.symbol, address: tokenIn.address, decimals: tokenIn.decimals },
    tokenOut: { chain, symbol: tokenOut.symbol, address: tokenOut.address, decimals: tokenOut.decimals },
    amountIn: quote.hops[0].amountIn.toString(),
    expectedAmountOut: quote.amountOut.toString(),
    minAmountOut: applySlippage(quote.amountOut, slippageBps).toString(),
    slippageBps,
    spender: quote.deployment.swapRouter02,
    path: quote.path,
    poolFees: quote.fees,
    estimatedDurationSeconds: swapDurationSeconds(devnet),
  };
}

/** Same-chain swaps on Uniswap V3: the direct pool of each fee tier and the hop through WETH. */
export class UniswapV3Provider implements QuoteProvider {
  readonly name = ProviderNames.uniswapV3;

  constructor(
    private readonly quoter: UniswapV3Quoter,
    private readonly thresholds: RouteWarningThresholds,
    /** Refuses taxed tokens (TOKEN_NOT_SUPPORTED): V3 pools revert on fee-on-transfer payments. */
    private readonly taxedTokens?: TaxedTokenGuard,
  ) {}

  applies(context: QuoteContext): boolean {
    return (
      context.fromChain.id === context.toChain.id &&
      this.quoter.deployment(context.fromChain.id) !== undefined
    );
  }

  async quote(context: QuoteContext, signal: AbortSignal): Promise<CandidateRoute[]> {
    const chain = context.fromChain;
    const [paths] = await Promise.all([
      this.quoter.quotePaths(chain.id, context.tokenIn, context.tokenOut, context.amountIn, signal),
      this.taxedTokens?.refuseTaxed(this.name, context, signal),
    ]);
    const weth = this.quoter.deployment(chain.id)?.weth;
    // Pools that exist but give nothing for so little: the amount is too low, not the liquidity.
    if (paths.length === 0 && weth)
      throw await uniswapNoPathError(this.name, context, weth, () =>
        this.quoter.smallestQuotableAmount(chain.id, context.tokenIn, context.tokenOut, signal),
      );
    // The best tier of each path shape only: the same path through a worse tier is not a choice.
    const seen = new Set<string>();
    const routes: CandidateRoute[] = [];
    for (const quote of paths) {
      const shape = quote.path.join('>');
      if (seen.has(shape)) continue;
      seen.add(shape);
      const leg = uniswapV3Leg(
        chain.id,
        chain.devnet,
        context.tokenIn,
        context.tokenOut,
        quote,
        context.slippageBps,
      );
      routes.push({
        providers: [this.name],
        legs: [leg],
        expectedAmountOut: quote.amountOut,
        estimatedDurationSeconds: leg.estimatedDurationSeconds,
        warnings:
          quote.priceImpactBps > this.thresholds.priceImpactBps ? [RouteWarnings.highPriceImpact] : [],
        debug: {
          path: quote.path,
          fees: quote.fees,
          pools: quote.hops.map((hop) => hop.pool),
          amounts: [quote.hops[0].amountIn, ...quote.hops.map((hop) => hop.amountOut)].map(String),
          priceImpactBps: quote.priceImpactBps,
          initializedTicksCrossed: quote.hops.map((hop) => hop.initializedTicksCrossed),
          gasEstimate: quote.hops.reduce((sum, hop) => sum + hop.gasEstimate, 0n).toString(),
        },
      });
    }
    return routes;
  }
}
