import { v3PriceImpactBps } from './uniswap-v3-quoter';

describe('v3PriceImpactBps', () => {
  const E18 = 10n ** 18n;
  it('is zero when the output equals the pool price less the LP fee, and counts the shortfall otherwise', () => {
    // 1 WETH at 3000 USDC (6 decimals): 3000e6 base units per 1e18 → price 3000e6 / 1e18 scaled by 1e18.
    const hop = { fee: 500, midPriceE18: 3000n * 10n ** 6n };
    const atMid = (3000n * 10n ** 6n * 9995n) / 10_000n;
    expect(v3PriceImpactBps(E18, [hop], atMid)).toBe(0);
    expect(v3PriceImpactBps(E18, [hop], (atMid * 99n) / 100n)).toBe(100);
  });

  it('multiplies the hops’ prices along a two-hop path', () => {
    const hops = [
      { fee: 3000, midPriceE18: 2n * E18 },
      { fee: 3000, midPriceE18: 3n * E18 },
    ];
    const mid = (6n * 1000n * 997n * 997n) / 1_000_000n;
    expect(v3PriceImpactBps(1000n, hops, mid)).toBe(0);
    expect(v3PriceImpactBps(1000n, hops, mid / 2n)).toBe(5000);
  });
});
