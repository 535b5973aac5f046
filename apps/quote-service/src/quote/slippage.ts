import type { RouteLeg } from '@swapgw/contracts';
import { BPS_DENOMINATOR } from './amounts';

/**
 * Automatic slippage (a quote without `slippageBps`), per swap leg:
 *
 *   slippageBps = clamp(BASE_BPS + ceil(pressureBps / 2), MIN_BPS, MAX_BPS)
 *   pressureBps = max(price impact of the leg, largest share of a pool's output side one hop takes)
 *
 * BASE_BPS covers an ordinary price move between the quote and the block; the pressure term grows
 * with how shallow the pools are against the trade, since the same flow of other trades moves a
 * shallow pool's price further. The price impact itself is already in expectedAmountOut.
 * An aggregator's route (LI.FI, 0x, Jupiter) fixes its minimum in the transaction it builds from the
 * slippage it is sent, before its price impact is known: it is asked with AGGREGATOR_BPS, and a
 * provider whose answer shows an impact applies max(AGGREGATOR_BPS, autoSlippageBps(impact)),
 * asking once more when that is higher (aggregatorAutoSlippageBps: LI.FI from its USD amounts,
 * Jupiter from its priceImpactPct). 0x v2 reports no impact and keeps AGGREGATOR_BPS. A bridge paying a fixed amount (devnet bridge, Across) has no slippage (0).
 */
export const AUTO_SLIPPAGE = {
  BASE_BPS: 30,
  MIN_BPS: 30,
  MAX_BPS: 300,
  AGGREGATOR_BPS: 50,
} as const;

/** How hard a swap leg pushes its pools: its price impact, and (Uniswap V2) its largest pool share. */
export interface SwapPressure {
  priceImpactBps: number;
  poolShareBps?: number;
}

export function autoSlippageBps(pressure: SwapPressure): number {
  const pressureBps = Math.max(0, pressure.priceImpactBps, pressure.poolShareBps ?? 0);
  const bps = AUTO_SLIPPAGE.BASE_BPS + Math.ceil(pressureBps / 2);
  return Math.min(AUTO_SLIPPAGE.MAX_BPS, Math.max(AUTO_SLIPPAGE.MIN_BPS, bps));
}

/** A swap leg's slippage: the request's when it has one, else automatic from the leg's pressure. */
export function swapLegSlippageBps(requested: number | undefined, pressure: SwapPressure): number {
  return requested ?? autoSlippageBps(pressure);
}

/** An aggregator's slippage (sent to its API): the request's when it has one, else AGGREGATOR_BPS. */
export function aggregatorSlippageBps(requested: number | undefined): number {
  return requested ?? AUTO_SLIPPAGE.AGGREGATOR_BPS;
}

/**
 * An aggregator route's automatic slippage once its answer shows a price impact: the swap legs'
 * rule (autoSlippageBps) on that impact, never under AGGREGATOR_BPS (what it was asked with, and
 * what a route whose impact is unknown keeps).
 */
export function aggregatorAutoSlippageBps(priceImpactBps: number | undefined): number {
  if (priceImpactBps === undefined) return AUTO_SLIPPAGE.AGGREGATOR_BPS;
  return Math.max(AUTO_SLIPPAGE.AGGREGATOR_BPS, autoSlippageBps({ priceImpactBps }));
}

/** An aggregator's answer and the slippage it was asked with (the route's). */
export interface AggregatorAnswer<T> {
  answer: T;
  slippageBps: number;
}

/**
 * Asks an aggregator at the route's slippage. With the request's slippage, once with it. Without,
 * automatic: asked at AGGREGATOR_BPS first; when its answer's price impact (`priceImpactBpsOf`,
 * undefined when it shows none) calls for more (aggregatorAutoSlippageBps), asked once more with
 * that, since the aggregator binds its transaction's minimum to the slippage it was asked (LI.FI's
 * toAmountMin, Jupiter's otherAmountThreshold): the route's minimum is then the one reported.
 */
export async function askAtAggregatorSlippage<T>(
  requested: number | undefined,
  ask: (slippageBps: number) => Promise<T>,
  priceImpactBpsOf: (answer: T) => number | undefined,
): Promise<AggregatorAnswer<T>> {
  const asked = aggregatorSlippageBps(requested);
  const first = await ask(asked);
  if (requested !== undefined) return { answer: first, slippageBps: asked };
  const automatic = aggregatorAutoSlippageBps(priceImpactBpsOf(first));
  if (automatic === asked) return { answer: first, slippageBps: asked };
  return { answer: await ask(automatic), slippageBps: automatic };
}

/**
 * The route's slippage: what the legs' slippages add up to when each leg spends what the previous
 * one guarantees, 1 − Π(1 − sᵢ), in basis points rounded up (50 and 50 → 100; 30 alone → 30).
 */
export function compoundedSlippageBps(legSlippages: number[]): number {
  let kept = 1n;
  let whole = 1n;
  for (const bps of legSlippages) {
    kept *= BPS_DENOMINATOR - BigInt(bps);
    whole *= BPS_DENOMINATOR;
  }
  const lostBps = whole - kept;
  return Number((lostBps * BPS_DENOMINATOR + whole - 1n) / whole);
}

/**
 * The least the route pays out as the execution planner enforces it: each leg after the first
 * spends what the previous leg guarantees (never more than it was quoted for), its minimum scaled
 * by the same ratio; a prebuilt transaction spends what it was built for.
 */
export function routeMinAmountOut(legs: RouteLeg[]): bigint {
  let guaranteed: bigint | null = null;
  let minOut = 0n;
  for (const leg of legs) {
    const quotedIn = BigInt(leg.amountIn);
    const prebuilt = Boolean(leg.call || leg.solanaTransaction);
    const spend = guaranteed === null || prebuilt || guaranteed > quotedIn ? quotedIn : guaranteed;
    minOut = quotedIn === 0n ? 0n : (BigInt(leg.minAmountOut) * spend) / quotedIn;
    guaranteed = minOut;
  }
  return minOut;
}
