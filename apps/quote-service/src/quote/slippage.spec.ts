import type { RouteLeg } from '@swapgw/contracts';
import { applySlippage } from './amounts';
import {
  aggregatorAutoSlippageBps,
  aggregatorSlippageBps,
  askAtAggregatorSlippage,
  AUTO_SLIPPAGE,
  autoSlippageBps,
  compoundedSlippageBps,
  routeMinAmountOut,
  swapLegSlippageBps,
} from './slippage';

describe('autoSlippageBps', () => {
  it('is 30 bps plus half the pressure, rounded up', () => {
    expect(autoSlippageBps({ priceImpactBps: 0 })).toBe(30);
    expect(autoSlippageBps({ priceImpactBps: 1 })).toBe(31);
    expect(autoSlippageBps({ priceImpactBps: 40 })).toBe(50);
    expect(autoSlippageBps({ priceImpactBps: 171 })).toBe(116);
  });

  it('takes the larger of the price impact and the pool share a hop takes', () => {
    expect(autoSlippageBps({ priceImpactBps: 10, poolShareBps: 100 })).toBe(80);
    expect(autoSlippageBps({ priceImpactBps: 100, poolShareBps: 10 })).toBe(80);
  });

  it('stays within [30, 300] bps, whatever the pressure', () => {
    expect(AUTO_SLIPPAGE).toMatchObject({ MIN_BPS: 30, MAX_BPS: 300 });
    expect(autoSlippageBps({ priceImpactBps: -50 })).toBe(30);
    expect(autoSlippageBps({ priceImpactBps: 540 })).toBe(300);
    expect(autoSlippageBps({ priceImpactBps: 10_000, poolShareBps: 9_000 })).toBe(300);
  });
});

describe('a leg’s slippage', () => {
  it("is the request's when it has one, whatever the pressure", () => {
    expect(swapLegSlippageBps(0, { priceImpactBps: 900 })).toBe(0);
    expect(swapLegSlippageBps(75, { priceImpactBps: 0 })).toBe(75);
    expect(aggregatorSlippageBps(120)).toBe(120);
  });

  it('is automatic without one; an aggregator gets 50 bps, its price impact being unknown before it answers', () => {
    expect(swapLegSlippageBps(undefined, { priceImpactBps: 100 })).toBe(80);
    expect(aggregatorSlippageBps(undefined)).toBe(50);
  });
});

describe('compoundedSlippageBps', () => {
  it('is one leg’s own, and 1 − Π(1 − sᵢ) rounded up over several; a fixed-output bridge adds nothing', () => {
    expect(compoundedSlippageBps([30])).toBe(30);
    expect(compoundedSlippageBps([0])).toBe(0);
    expect(compoundedSlippageBps([50, 0, 50])).toBe(100); // 99.75 → 100
    expect(compoundedSlippageBps([30, 0, 116])).toBe(146); // 145.652 → 146
    expect(compoundedSlippageBps([300, 300])).toBe(591);
  });
});

describe('routeMinAmountOut', () => {
  const leg = (amountIn: bigint, expected: bigint, slippageBps: number): RouteLeg =>
    ({
      amountIn: amountIn.toString(),
      expectedAmountOut: expected.toString(),
      minAmountOut: applySlippage(expected, slippageBps).toString(),
      slippageBps,
    }) as RouteLeg;

  it('is the leg’s minimum for one leg', () => {
    expect(routeMinAmountOut([leg(1000n, 3_000_000n, 30)])).toBe(applySlippage(3_000_000n, 30));
  });

  it('scales each later leg to what the previous one guarantees, as the planner executes it', () => {
    // swap (1%) → bridge paying 999/1000 exactly → swap (1%)
    const legs = [
      leg(10n ** 18n, 3_000_000_000n, 100),
      leg(3_000_000_000n, 2_997_000_000n, 0),
      leg(2_997_000_000n, 10n ** 18n, 100),
    ];
    const min = routeMinAmountOut(legs);
    // 1 − 0.99 × 0.99 = 1.99 %: the route's compounded slippage, up to rounding in base units.
    expect(min).toBeLessThanOrEqual(applySlippage(10n ** 18n, 199));
    expect(min).toBeGreaterThanOrEqual(applySlippage(10n ** 18n, 199) - 10n);
  });
});

describe('aggregatorAutoSlippageBps', () => {
  it('applies the swap legs’ rule to the impact an aggregator shows, never under the 50 bps it was asked with', () => {
    expect(aggregatorAutoSlippageBps(undefined)).toBe(AUTO_SLIPPAGE.AGGREGATOR_BPS);
    expect(aggregatorAutoSlippageBps(4)).toBe(50); // 30 + 2, raised to 50
    expect(aggregatorAutoSlippageBps(251)).toBe(156); // 30 + ceil(251 / 2)
    expect(aggregatorAutoSlippageBps(5_000)).toBe(AUTO_SLIPPAGE.MAX_BPS);
  });
});

describe('askAtAggregatorSlippage', () => {
  /** An aggregator whose answers show `impactBps`, recording the slippage of each request. */
  const aggregator = (impactBps: number | undefined) => {
    const asked: number[] = [];
    const ask = async (slippageBps: number) => {
      asked.push(slippageBps);
      return { impactBps, minimumFor: slippageBps };
    };
    return { asked, ask, impactOf: (answer: { impactBps: number | undefined }) => answer.impactBps };
  };

  it('asks once with the request’s slippage, whatever the impact', async () => {
    const { asked, ask, impactOf } = aggregator(400);
    expect(await askAtAggregatorSlippage(120, ask, impactOf)).toEqual({
      answer: { impactBps: 400, minimumFor: 120 },
      slippageBps: 120,
    });
    expect(asked).toEqual([120]);
  });

  it('keeps the first answer when its impact needs no more than the 50 bps asked (or shows none)', async () => {
    for (const impact of [undefined, 40]) {
      const { asked, ask, impactOf } = aggregator(impact);
      expect(await askAtAggregatorSlippage(undefined, ask, impactOf)).toMatchObject({ slippageBps: 50 });
      expect(asked).toEqual([AUTO_SLIPPAGE.AGGREGATOR_BPS]);
    }
  });

  it('asks again with the automatic slippage above 50 bps, so the answer’s minimum is bound to it', async () => {
    const { asked, ask, impactOf } = aggregator(100);
    expect(await askAtAggregatorSlippage(undefined, ask, impactOf)).toEqual({
      answer: { impactBps: 100, minimumFor: 80 },
      slippageBps: 80,
    });
    expect(asked).toEqual([50, 80]);
  });
});
