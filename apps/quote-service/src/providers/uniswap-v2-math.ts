/**
 * Uniswap V2 pricing, exactly as UniswapV2Library does it on chain (0.3% fee, integer division),
 * so quoted amounts equal router.getAmountsOut.
 */
export function getAmountOut(amountIn: bigint, reserveIn: bigint, reserveOut: bigint): bigint {
  if (amountIn <= 0n) throw new RangeError('amountIn must be positive');
  if (reserveIn <= 0n || reserveOut <= 0n) throw new RangeError('insufficient liquidity');
  const amountInWithFee = amountIn * 997n;
  return (amountInWithFee * reserveOut) / (reserveIn * 1000n + amountInWithFee);
}

export interface HopReserves {
  reserveIn: bigint;
  reserveOut: bigint;
}

/** Amounts along a path, like router.getAmountsOut: [amountIn, out of hop 1, ..., final out]. */
export function getAmountsOut(amountIn: bigint, hops: HopReserves[]): bigint[] {
  const amounts = [amountIn];
  for (const hop of hops)
    amounts.push(getAmountOut(amounts[amounts.length - 1], hop.reserveIn, hop.reserveOut));
  return amounts;
}

/**
 * The input that buys at least `amountOut` from one pool, as UniswapV2Library.getAmountIn computes
 * it on chain (the least such input, or one more when the division is exact).
 */
export function getAmountIn(amountOut: bigint, reserveIn: bigint, reserveOut: bigint): bigint {
  if (amountOut <= 0n) throw new RangeError('amountOut must be positive');
  if (reserveIn <= 0n || amountOut >= reserveOut) throw new RangeError('insufficient liquidity');
  return (reserveIn * amountOut * 1000n) / ((reserveOut - amountOut) * 997n) + 1n;
}

/** Inputs along a path for `amountOut` at its end, like router.getAmountsIn: [amountIn, ..., amountOut]. */
/** getAmountsIn when every hop holds more than it is asked to pay out; undefined otherwise. */
export function leastAmountsIn(amountOut: bigint, hops: HopReserves[]): bigint[] | undefined {
  try {
    return getAmountsIn(amountOut, hops);
  } catch (error) {
    if (error instanceof RangeError) return undefined; // a pool holds too little (getAmountIn)
    throw error;
  }
}

export function getAmountsIn(amountOut: bigint, hops: HopReserves[]): bigint[] {
  const amounts = [amountOut];
  for (const hop of [...hops].reverse())
    amounts.unshift(getAmountIn(amounts[0], hop.reserveIn, hop.reserveOut));
  return amounts;
}

/**
 * Price impact in basis points: how much worse the output is than at the pools' mid price, with
 * the 0.3% LP fee left out (a fee is a known cost, not an impact).
 */
export function priceImpactBps(amountIn: bigint, hops: HopReserves[], amountOut: bigint): number {
  let midOut = amountIn * 10n ** 18n;
  for (const hop of hops) midOut = (midOut * hop.reserveOut * 997n) / (hop.reserveIn * 1000n);
  if (midOut === 0n) return 10_000;
  const actual = amountOut * 10n ** 18n;
  if (actual >= midOut) return 0;
  return Number(((midOut - actual) * 10_000n) / midOut);
}
