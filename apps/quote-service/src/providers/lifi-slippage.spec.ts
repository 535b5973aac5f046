import { lifiPriceImpactBps } from './lifi.provider';

const estimate = (fromAmountUSD?: string, toAmountUSD?: string, feeCosts: unknown[] = []) =>
  ({ estimate: { fromAmountUSD, toAmountUSD, feeCosts } }) as unknown as Parameters<
    typeof lifiPriceImpactBps
  >[0];

describe("LI.FI's price impact (its automatic slippage: askAtAggregatorSlippage)", () => {
  it('reads the impact from the USD amounts, net of the fees included in them', () => {
    expect(lifiPriceImpactBps(estimate('1000', '950'))).toBe(500);
    // $3 of integrator fee and $2.5 of LI.FI's are not the market: 1 − 991 / 994.5.
    const fees = [
      { name: 'Integrator Fee', amountUSD: '3.00', included: true },
      { name: 'LIFI Fixed Fee', amountUSD: '2.50', included: true },
      { name: 'Bridge gas', amountUSD: '9.00', included: false },
    ];
    expect(lifiPriceImpactBps(estimate('1000', '991', fees))).toBe(35);
    expect(lifiPriceImpactBps(estimate('1000', '1001'))).toBe(0);
  });

  it('has no impact without USD figures', () => {
    expect(lifiPriceImpactBps(estimate(undefined, '990'))).toBeUndefined();
    expect(lifiPriceImpactBps(estimate('0', '0'))).toBeUndefined();
  });
});
