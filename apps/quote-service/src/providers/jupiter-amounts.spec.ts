import { fractionToBps } from './jupiter.provider';

describe('Jupiter priceImpactPct (a fraction) in basis points', () => {
  it('reads decimal fractions exactly, truncating below a basis point', () => {
    expect(fractionToBps('0')).toBe(0);
    expect(fractionToBps('0.0123')).toBe(123);
    expect(fractionToBps('0.01239')).toBe(123);
    expect(fractionToBps('1')).toBe(10_000);
    expect(fractionToBps('0.5')).toBe(5_000);
  });

  it('counts an unreadable figure as no impact rather than failing the quote', () => {
    expect(fractionToBps(undefined)).toBe(0);
    expect(fractionToBps('-0.1')).toBe(0);
    expect(fractionToBps('1e-5')).toBe(0);
  });
});
