import { ChainRegistry } from '@swapgw/chains';
import {
  CodedError,
  ErrorCodes,
  RepriceRouteLegRequest,
  RepriceRouteLegResult,
  RouteLeg,
  RoutePlan,
  TokenRef,
} from '@swapgw/contracts';
import { CandidateRoute, QuoteContext, QuoteProvider, QuoteToken } from '../providers/quote-provider';
import { gatherRoutes } from './provider-orchestrator';
import { routeMinAmountOut } from './slippage';

/**
 * `quote.reprice`: one leg of a served plan priced again, now, by the provider that quoted it and
 * through the same code path as a quote (`gatherRoutes`, its deadline and its failure handling),
 * asked for that leg only: its chain, its tokens, its amount and the slippage it was quoted with.
 * The fresh leg is the provider's route over the same path (and fee tiers); an aggregator's leg is
 * its one route, its transaction rebuilt for the plan's recipient.
 *
 * A bridge leg pays a fixed amount and is not re-priced. A leg with a prebuilt transaction inside a
 * longer route is not either: the provider would build it for the wrong wallet, and the signer's
 * gas estimate still refuses a payload that would revert (TX_REQUEST_INVALID).
 */
export class RouteRepricer {
  constructor(
    private readonly registry: ChainRegistry,
    private readonly providers: QuoteProvider[],
    private readonly providerTimeoutMs: number,
  ) {}

  async reprice(request: RepriceRouteLegRequest): Promise<RepriceRouteLegResult> {
    const { plan, legIndex } = request;
    const leg = plan.legs[legIndex];
    if (!leg)
      throw new CodedError(ErrorCodes.VALIDATION_FAILED, `The plan has no leg ${legIndex}`, {
        fields: ['legIndex'],
      });
    if (!isRepriceable(plan, leg)) return quotedFigures(plan, legIndex);

    const provider = this.providers.find((p) => p.name === leg.provider);
    const context = this.contextOf(plan, leg, legIndex);
    if (!provider || !provider.applies(context))
      throw new CodedError(
        ErrorCodes.QUOTE_UPSTREAM_FAILED,
        `${leg.provider} cannot price ${leg.chain} now; request a new quote`,
        { provider: leg.provider },
      );
    const gathered = await gatherRoutes([provider], context, this.providerTimeoutMs);
    const [outcome] = gathered.outcomes;
    if (outcome.status === 'failed' || outcome.status === 'timed-out')
      throw new CodedError(
        ErrorCodes.QUOTE_UPSTREAM_FAILED,
        `${leg.provider} could not price the route again (${outcome.status})`,
        { providers: [{ provider: outcome.provider, status: outcome.status }] },
      );
    return repricedFigures(plan, legIndex, sameLegOf(leg, gathered.routes));
  }

  private contextOf(plan: RoutePlan, leg: RouteLeg, legIndex: number): QuoteContext {
    const chain = this.registry.find(leg.chain);
    if (!chain)
      throw new CodedError(ErrorCodes.QUOTE_UPSTREAM_FAILED, `${leg.chain} is no longer served`, {
        chain: leg.chain,
      });
    const takenByAggregator =
      legIndex === 0
        ? (plan.integratorFees ?? [])
            .filter((fee) => fee.collectedBy === 'aggregator')
            .map((fee) => ({ recipient: fee.recipient, bps: fee.bps, amount: BigInt(fee.amount) }))
        : [];
    const tokenOf = (ref: TokenRef): QuoteToken =>
      chain.family === 'solana' ? { ...ref, address: null, mint: ref.address } : { ...ref };
    const amountIn = BigInt(leg.amountIn);
    // The transaction that takes the fees spends the leg's amountIn and the fees (RouteLeg amountIn).
    const grossAmountIn = takenByAggregator.reduce((gross, fee) => gross + fee.amount, amountIn);
    return {
      fromChain: chain,
      toChain: chain,
      tokenIn: tokenOf(leg.tokenIn),
      tokenOut: tokenOf(leg.tokenOut),
      amountIn,
      // The leg keeps the slippage it was quoted with: its new minimum is the same distance below.
      slippageBps: leg.slippageBps ?? plan.slippageBps,
      // An aggregator's leg that takes the integrator fee is rebuilt with it (same share of the input).
      ...(takenByAggregator.length > 0
        ? { integratorFee: { grossAmountIn, charges: takenByAggregator } }
        : {}),
      // Only a single-leg route's transaction pays the plan's recipient (see isRepriceable).
      ...(plan.recipient !== undefined && plan.legs.length === 1 ? { recipient: plan.recipient } : {}),
    };
  }
}

/** A same-chain swap leg, and not a prebuilt transaction that is one part of a longer route. */
function isRepriceable(plan: RoutePlan, leg: RouteLeg): boolean {
  if (leg.kind !== 'swap' || leg.destinationChain !== undefined) return false;
  const prebuilt = Boolean(leg.call || leg.solanaTransaction);
  return !prebuilt || plan.legs.length === 1;
}

/** The provider's fresh leg over the same path (and fee tiers) as the quoted one; null: no route there now. */
export function sameLegOf(leg: RouteLeg, routes: CandidateRoute[]): RouteLeg | null {
  const key = (l: RouteLeg) =>
    `${l.provider}|${(l.path ?? []).map((a) => a.toLowerCase()).join('>')}|${(l.poolFees ?? []).join(',')}`;
  for (const route of routes) {
    if (route.legs.length !== 1) continue;
    const [fresh] = route.legs;
    if (key(fresh) === key(leg) && fresh.amountIn === leg.amountIn) return fresh;
  }
  return null;
}

/** Nothing re-priced: the quoted figures, unchanged. */
export function quotedFigures(plan: RoutePlan, legIndex: number): RepriceRouteLegResult {
  const quotedMin = routeMinAmountOut(plan.legs).toString();
  return {
    legIndex,
    repriced: false,
    expectedAmountOut: plan.expectedAmountOut,
    minAmountOut: quotedMin,
    quotedExpectedAmountOut: plan.expectedAmountOut,
    quotedMinAmountOut: quotedMin,
    movedBeyondSlippage: false,
  };
}

/**
 * The route's figures with one leg at its new price: the route's output scales with the leg's
 * (later legs spend what it pays), its minimum is the one the planner would enforce with the fresh
 * leg. Moved beyond slippage: the leg now pays less than the minimum it was quoted with, so a
 * payload bound to the quote would revert.
 */
export function repricedFigures(
  plan: RoutePlan,
  legIndex: number,
  fresh: RouteLeg | null,
): RepriceRouteLegResult {
  const leg = plan.legs[legIndex];
  const quotedLegOut = BigInt(leg.expectedAmountOut);
  const freshLegOut = fresh ? BigInt(fresh.expectedAmountOut) : 0n;
  const quotedExpected = BigInt(plan.expectedAmountOut);
  const expected =
    plan.legs.length === 1 || quotedLegOut === 0n
      ? freshLegOut
      : (quotedExpected * freshLegOut) / quotedLegOut;
  const legs = fresh ? plan.legs.map((l, i) => (i === legIndex ? fresh : l)) : null;
  return {
    legIndex,
    repriced: true,
    ...(fresh ? { leg: fresh } : {}),
    expectedAmountOut: expected.toString(),
    minAmountOut: legs ? routeMinAmountOut(legs).toString() : '0',
    quotedExpectedAmountOut: plan.expectedAmountOut,
    quotedMinAmountOut: routeMinAmountOut(plan.legs).toString(),
    movedBeyondSlippage: freshLegOut < BigInt(leg.minAmountOut),
  };
}
