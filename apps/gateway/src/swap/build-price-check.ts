import { Injectable, Logger } from '@nestjs/common';
import { baseUnitsToAmount, termsAmountToBaseUnits } from '@swapgw/chains';
import {
  CodedError,
  ErrorCodes,
  QuoteMessageTypes,
  RepriceRouteLegRequest,
  RepriceRouteLegResult,
  RoutePlan,
  Topics,
} from '@swapgw/contracts';
import { Clock } from '@swapgw/runtime';
import { ServiceClient } from '../messaging/service-client';

/**
 * What a build answers of its price check (`priceCheck`, human units of tokenOut): the route's
 * output priced again at build time, and the minimum the payload binds (the quote's while the price
 * is within slippage, the new price's when the client accepted it).
 */
export interface BuildPriceCheck {
  outcome: 'within-slippage' | 'accepted';
  expectedAmountOut: string;
  minAmountOut: string;
  quotedExpectedAmountOut: string;
  quotedMinAmountOut: string;
  checkedAtMs: number;
}

export interface PricedPlan {
  /** The plan the build sends: the quoted one, or the one with the re-priced leg the client accepted. */
  plan: RoutePlan;
  /** Absent when the first leg has no price to check (a bridge paying a fixed amount). */
  priceCheck?: BuildPriceCheck;
}

/**
 * Bound of the `quote.reprice` call. A zero-wait build answers within 5 s however busy quote-service
 * is (issue 44): past this bound the build goes on unchecked, as below. A provider slower than this
 * (its own deadline is 4 s by default) leaves that build unchecked too; the payload's minimum, from
 * the quote, still binds on chain.
 */
export const REPRICE_TIMEOUT_MS = 3_000;

/**
 * Prices the first leg of the chosen route again before the build command goes out (issue 30,
 * point 6: prices still true at build). The gateway asks, not the planner, because the verdict is
 * an answer to the HTTP caller now (409 QUOTE_PRICE_CHANGED with the new figures, or a payload
 * bound to the accepted price), and a refused price must leave no swap behind: the build stays a
 * durable command once the price holds. quote-service does the pricing, through the provider
 * that quoted the leg: a provider that fails is 502 QUOTE_UPSTREAM_FAILED, as for a quote; Kafka or
 * quote-service not answering within REPRICE_TIMEOUT_MS (busy under a burst, or away) does not
 * refuse the build: load is absorbed, not refused. The build goes on with the quoted plan, whose
 * minimum the chain still enforces, and its answer has no `priceCheck`. Only a build that accepts
 * a new price (acceptedMinAmountOut) needs the fresh price, and answers the usual 503 then.
 */
@Injectable()
export class BuildPriceChecker {
  private readonly logger = new Logger(BuildPriceChecker.name);

  constructor(
    private readonly services: ServiceClient,
    private readonly clock: Clock,
  ) {}

  async check(
    plan: RoutePlan,
    acceptedMinAmountOut: string | undefined,
    nowMs = this.clock.nowMs(),
  ): Promise<PricedPlan> {
    // A malformed acceptance is a 400 before anything is priced.
    const acceptedMin =
      acceptedMinAmountOut === undefined
        ? undefined
        : termsAmountToBaseUnits(acceptedMinAmountOut, plan.tokenOut.decimals, 'acceptedMinAmountOut');
    const request: RepriceRouteLegRequest = { plan, legIndex: 0 };
    let result: RepriceRouteLegResult;
    try {
      result = await this.services.unordered<RepriceRouteLegResult>(
        Topics.quoteChecks,
        QuoteMessageTypes.reprice,
        request,
        REPRICE_TIMEOUT_MS,
      );
    } catch (error) {
      const unanswered = error instanceof CodedError && error.code === ErrorCodes.SERVICE_UNAVAILABLE;
      if (!unanswered || acceptedMin !== undefined) throw error;
      this.logger.warn({
        msg: 'build price check skipped: quote-service did not answer',
        quoteId: plan.quoteId,
      });
      return { plan };
    }
    return priceVerdictOf(plan, result, acceptedMin, nowMs);
  }
}

/**
 * The build's verdict on a re-priced first leg:
 * - nothing re-priced: the quoted plan;
 * - the leg still pays at least its quoted minimum (moved within slippage, or not at all): the
 *   quoted plan, whose minimum still holds, with the fresh figures reported;
 * - it pays less, and the client accepted a minimum the new price meets: the plan with the fresh
 *   leg, so the payload binds the new price's minimum (never a payload bound to revert);
 * - else 409 QUOTE_PRICE_CHANGED with the new and the quoted figures. No route left at all
 *   (expectedAmountOut 0) cannot be accepted.
 */
export function priceVerdictOf(
  plan: RoutePlan,
  result: RepriceRouteLegResult,
  acceptedMin: bigint | undefined,
  nowMs: number,
): PricedPlan {
  if (!result.repriced) return { plan };
  const decimals = plan.tokenOut.decimals;
  const human = (units: string) => baseUnitsToAmount(units, decimals);
  const figures = {
    expectedAmountOut: human(result.expectedAmountOut),
    quotedExpectedAmountOut: human(result.quotedExpectedAmountOut),
    quotedMinAmountOut: human(result.quotedMinAmountOut),
    checkedAtMs: nowMs,
  };
  if (!result.movedBeyondSlippage)
    return {
      plan,
      priceCheck: { outcome: 'within-slippage', ...figures, minAmountOut: human(result.quotedMinAmountOut) },
    };
  const freshMin = BigInt(result.minAmountOut);
  const fresh = result.leg;
  if (fresh && freshMin > 0n && acceptedMin !== undefined && freshMin >= acceptedMin) {
    const legs = plan.legs.map((leg, index) => (index === result.legIndex ? fresh : leg));
    return {
      plan: { ...plan, legs, expectedAmountOut: result.expectedAmountOut },
      priceCheck: { outcome: 'accepted', ...figures, minAmountOut: human(result.minAmountOut) },
    };
  }
  throw new CodedError(
    ErrorCodes.QUOTE_PRICE_CHANGED,
    result.leg
      ? "The route's output moved beyond the quote's slippage: request a new quote, or build again with acceptedMinAmountOut"
      : 'The route has no liquidity left for this amount: request a new quote',
    {
      routeId: plan.routeId,
      expectedAmountOut: figures.expectedAmountOut,
      minAmountOut: human(result.minAmountOut),
      quotedExpectedAmountOut: figures.quotedExpectedAmountOut,
      quotedMinAmountOut: figures.quotedMinAmountOut,
      ...(acceptedMin !== undefined ? { acceptedMinAmountOut: human(acceptedMin.toString()) } : {}),
    },
  );
}
