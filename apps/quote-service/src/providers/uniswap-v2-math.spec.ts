import { getAmountOut, getAmountsIn, getAmountsOut, priceImpactBps } from './uniswap-v2-math';

describe('Uniswap V2 math', () => {
  it('matches the UniswapV2Library formula with its 0.3% fee and floor division', () => {
    // 1 WETH into a 100 WETH / 300,000 USDC pool
    const out = getAmountOut(10n ** 18n, 100n * 10n ** 18n, 300_000n * 10n ** 6n);
    // 2.991e32 / 1.00997e23 = 2961474103.19, floored
    expect(out).toBe(
      (10n ** 18n * 997n * 300_000_000_000n) / (100n * 10n ** 18n * 1000n + 10n ** 18n * 997n),
    );
    expect(out).toBe(2_961_474_103n);
  });

  it('chains hops like router.getAmountsOut', () => {
    const hops = [
      { reserveIn: 1_000_000n, reserveOut: 2_000_000n },
      { reserveIn: 5_000_000n, reserveOut: 1_000_000n },
    ];
    const amounts = getAmountsOut(10_000n, hops);
    expect(amounts[0]).toBe(10_000n);
    expect(amounts[1]).toBe(getAmountOut(10_000n, 1_000_000n, 2_000_000n));
    expect(amounts[2]).toBe(getAmountOut(amounts[1], 5_000_000n, 1_000_000n));
  });

  it('refuses empty pools', () => {
    expect(() => getAmountOut(1n, 0n, 10n)).toThrow(/liquidity/);
    expect(() => getAmountOut(0n, 10n, 10n)).toThrow(/positive/);
  });

  it('reports near-zero impact for small trades and large impact for pool-draining ones', () => {
    const pool = [{ reserveIn: 10n ** 24n, reserveOut: 10n ** 24n }];
    const small = 10n ** 18n;
    expect(priceImpactBps(small, pool, getAmountsOut(small, pool)[1])).toBe(0);
    const big = 10n ** 23n; // 10% of the pool
    const impact = priceImpactBps(big, pool, getAmountsOut(big, pool)[1]);
    expect(impact).toBeGreaterThan(800);
    expect(impact).toBeLessThan(1000);
  });
});

describe('getAmountsIn: the input a path needs, as router.getAmountsIn', () => {
  const hops = [
    { reserveIn: 10n ** 24n, reserveOut: 5n * 10n ** 21n },
    { reserveIn: 3n * 10n ** 20n, reserveOut: 9n * 10n ** 11n },
  ];

  it('buys at least the amount asked, and one unit less of input never buys more than it', () => {
    for (const amountOut of [1n, 7n, 1_000_000n]) {
      const [amountIn] = getAmountsIn(amountOut, hops);
      const bought = getAmountsOut(amountIn, hops);
      expect(bought[bought.length - 1]).toBeGreaterThanOrEqual(amountOut);
    }
    const [least] = getAmountsIn(1n, hops.slice(0, 1));
    // One hop: UniswapV2Library's +1 makes it the least input, or one above it when the division is exact.
    expect(getAmountOut(least - 2n, hops[0].reserveIn, hops[0].reserveOut)).toBe(0n);
  });

  it('refuses an output the pool cannot pay', () => {
    expect(() => getAmountsIn(5n * 10n ** 21n, hops.slice(0, 1))).toThrow(RangeError);
  });
});
