import type { RoutePlan } from '@swapgw/contracts';
import { FillQuote, meetsLimit, searchFillOrKill, searchImmediateOrCancel } from './fill-search';

/** The search never reads the plan: it only travels on to the build. */
const PLAN = { quoteId: 'q', routeId: 'r-1' } as RoutePlan;

/** A constant-product pool: out = reserveOut * in * 997 / (reserveIn * 1000 + in * 997). */
function poolQuoter(reserveIn: bigint, reserveOut: bigint) {
  const calls: bigint[] = [];
  const quote = async (amountIn: bigint): Promise<FillQuote> => {
    calls.push(amountIn);
    const withFee = amountIn * 997n;
    const amountOut = (reserveOut * withFee) / (reserveIn * 1000n + withFee);
    return { amountIn, amountOut, quoteId: `q-${amountIn}`, routeId: 'r-1', plan: PLAN };
  };
  return { quote, calls };
}

const E18 = 10n ** 18n;
const E6 = 10n ** 6n;
// 1000 WETH against 3,000,000 USDC: spot 3000 USDC per WETH.
const RESERVE_WETH = 1000n * E18;
const RESERVE_USDC = 3_000_000n * E6;

describe('meetsLimit', () => {
  it('compares price, not absolute output, so a part can meet a proportional limit', () => {
    const order = { amountIn: 10n, minAmountOut: 100n };
    expect(meetsLimit({ amountIn: 5n, amountOut: 50n, quoteId: 'q', routeId: 'r', plan: PLAN }, order)).toBe(
      true,
    );
    expect(meetsLimit({ amountIn: 5n, amountOut: 49n, quoteId: 'q', routeId: 'r', plan: PLAN }, order)).toBe(
      false,
    );
  });
});

describe('searchFillOrKill', () => {
  it('fills when the whole amount meets the limit, with one quote', async () => {
    const pool = poolQuoter(RESERVE_WETH, RESERVE_USDC);
    const fill = await searchFillOrKill({
      amountIn: E18,
      minAmountOut: 2900n * E6,
      quote: pool.quote,
      maxQuotes: 12,
    });
    expect(fill?.amountIn).toBe(E18);
    expect(pool.calls).toEqual([E18]);
  });

  it('kills when the whole amount misses the limit, even if a part would meet it', async () => {
    const pool = poolQuoter(RESERVE_WETH, RESERVE_USDC);
    // 100 WETH moves the pool ~9%: 2900 per WETH is not met for the whole amount.
    const fill = await searchFillOrKill({
      amountIn: 100n * E18,
      minAmountOut: 290_000n * E6,
      quote: pool.quote,
      maxQuotes: 12,
    });
    expect(fill).toBeNull();
  });

  it('kills when no route exists', async () => {
    const fill = await searchFillOrKill({
      amountIn: E18,
      minAmountOut: 1n,
      quote: async () => null,
      maxQuotes: 12,
    });
    expect(fill).toBeNull();
  });
});

describe('searchImmediateOrCancel', () => {
  it('takes the whole amount when it meets the limit', async () => {
    const pool = poolQuoter(RESERVE_WETH, RESERVE_USDC);
    const fill = await searchImmediateOrCancel({
      amountIn: E18,
      minAmountOut: 2900n * E6,
      quote: pool.quote,
      maxQuotes: 12,
    });
    expect(fill?.amountIn).toBe(E18);
    expect(pool.calls).toHaveLength(1);
  });

  it('finds the largest part that meets the limit within the quote budget', async () => {
    const pool = poolQuoter(RESERVE_WETH, RESERVE_USDC);
    const amountIn = 100n * E18;
    const minAmountOut = 290_000n * E6; // limit 2900 USDC per WETH
    const fill = await searchImmediateOrCancel({ amountIn, minAmountOut, quote: pool.quote, maxQuotes: 12 });

    expect(fill).not.toBeNull();
    expect(pool.calls.length).toBeLessThanOrEqual(12);
    expect(meetsLimit(fill as FillQuote, { amountIn, minAmountOut })).toBe(true);
    // The exact boundary: out(x)/x = 2900 ⇔ x ≈ 31.38 WETH for this pool. The search lands within
    // the interval it could still resolve with 11 halvings (100 / 2^11 ≈ 0.05 WETH).
    const boundary = await exactBoundary(amountIn, minAmountOut);
    expect(boundary - (fill as FillQuote).amountIn).toBeGreaterThanOrEqual(0n);
    expect(boundary - (fill as FillQuote).amountIn).toBeLessThan(amountIn / 2048n + 1n);
  });

  it('returns null when no part meets the limit', async () => {
    const pool = poolQuoter(RESERVE_WETH, RESERVE_USDC);
    const fill = await searchImmediateOrCancel({
      amountIn: E18,
      minAmountOut: 3100n * E6,
      quote: pool.quote,
      maxQuotes: 8,
    });
    expect(fill).toBeNull();
    expect(pool.calls).toHaveLength(8);
  });

  it('never spends more than maxQuotes', async () => {
    const pool = poolQuoter(RESERVE_WETH, RESERVE_USDC);
    await searchImmediateOrCancel({
      amountIn: 500n * E18,
      minAmountOut: 1_000_000n * E6,
      quote: pool.quote,
      maxQuotes: 5,
    });
    expect(pool.calls).toHaveLength(5);
  });
});

/** Largest x with out(x) * amountIn >= minAmountOut * x, by exhaustive bisection on integers. */
async function exactBoundary(amountIn: bigint, minAmountOut: bigint): Promise<bigint> {
  const pool = poolQuoter(RESERVE_WETH, RESERVE_USDC);
  let low = 0n;
  let high = amountIn;
  while (high - low > 1n) {
    const mid = (low + high) / 2n;
    const q = await pool.quote(mid);
    if (meetsLimit(q, { amountIn, minAmountOut })) low = mid;
    else high = mid;
  }
  return low;
}
