import { CodedError } from '@swapgw/contracts';
import { afterFeeBps, applySlippage, toBaseUnits } from './amounts';

describe('amounts', () => {
  it('converts human amounts to base units exactly', () => {
    expect(toBaseUnits('1.5', 6)).toBe(1_500_000n);
    expect(toBaseUnits('0.000001', 6)).toBe(1n);
    expect(toBaseUnits('123456789.123456789123456789', 18)).toBe(123456789123456789123456789n);
    expect(toBaseUnits('10', 0)).toBe(10n);
  });

  it.each([['0'], ['0.000'], ['-1'], ['1e6'], ['.5'], ['1.'], ['abc'], ['01.5'], ['']])(
    'rejects %p with INVALID_AMOUNT',
    (amount) => {
      expect(() => toBaseUnits(amount, 18)).toThrow(CodedError);
      try {
        toBaseUnits(amount, 18);
      } catch (error) {
        expect((error as CodedError).code).toBe('INVALID_AMOUNT');
      }
    },
  );

  it('rejects more decimals than the token has', () => {
    expect(() => toBaseUnits('1.0000001', 6)).toThrow(/7 decimals; the token has 6/);
  });

  it('applies slippage rounding down', () => {
    expect(applySlippage(1_000_000n, 50)).toBe(995_000n);
    expect(applySlippage(999n, 50)).toBe(994n); // 994.005 floors
    expect(applySlippage(123n, 0)).toBe(123n);
    expect(() => applySlippage(1n, 10_000)).toThrow(RangeError);
  });

  it('takes a bridge fee in basis points', () => {
    expect(afterFeeBps(1_000_000n, 10)).toBe(999_000n);
    expect(afterFeeBps(15n, 10)).toBe(15n); // fee of 0.015 rounds to 0
  });
});
