import type { RoutePlan } from '@swapgw/contracts';

/** A live quote for one amount of tokenIn, as far as filling a limit order is concerned. */
export interface FillQuote {
  amountIn: bigint;
  amountOut: bigint;
  quoteId: string;
  routeId: string;
  /** The route's executable plan, sent on with the build. */
  plan: RoutePlan;
}

/** Quotes `amountIn` base units of tokenIn; null when no route exists for that amount. */
export type QuoteFn = (amountIn: bigint) => Promise<FillQuote | null>;

export interface FillSearchInput {
  amountIn: bigint;
  minAmountOut: bigint;
  quote: QuoteFn;
  /** Upper bound on quotes for one search, the first (whole amount) included. */
  maxQuotes: number;
}

/**
 * Out meets the limit when out/in ≥ minAmountOut/amountIn, i.e. the order's limit price holds for
 * a part as it does for the whole (cross-multiplied to stay in integers).
 */
export function meetsLimit(quote: FillQuote, order: { amountIn: bigint; minAmountOut: bigint }): boolean {
  return quote.amountOut * order.amountIn >= order.minAmountOut * quote.amountIn;
}

/** FOK: the whole amount meets the limit, or nothing does. */
export async function searchFillOrKill(input: FillSearchInput): Promise<FillQuote | null> {
  const whole = await input.quote(input.amountIn);
  return whole && meetsLimit(whole, input) ? whole : null;
}

/**
 * IOC: the largest part of the amount whose live quote meets the limit price.
 *
 * On a constant-product pool the average price gets worse as the amount grows, so "meets the
 * limit" is monotone in the amount and a binary search over it finds the boundary. The whole
 * amount is tried first (the common case costs one quote); the search then halves the interval
 * until `maxQuotes` quotes were spent or the interval is below 0.1% of the amount. Returns the
 * best part found that meets the limit, with the quote to build the swap from, or null.
 */
export async function searchImmediateOrCancel(input: FillSearchInput): Promise<FillQuote | null> {
  const whole = await input.quote(input.amountIn);
  if (whole && meetsLimit(whole, input)) return whole;

  let best: FillQuote | null = null;
  let low = 0n; // largest amount known to meet the limit (0: none known)
  let high = input.amountIn; // smallest amount known not to meet it
  const resolution = input.amountIn / 1000n > 0n ? input.amountIn / 1000n : 1n;
  let quotesLeft = input.maxQuotes - 1;

  while (quotesLeft > 0 && high - low > resolution) {
    const probe = low + (high - low) / 2n;
    if (probe <= 0n) break;
    quotesLeft -= 1;
    const quote = await input.quote(probe);
    if (quote && meetsLimit(quote, input)) {
      best = quote;
      low = probe;
    } else {
      high = probe;
    }
  }
  return best;
}
