import { CodedError } from '@swapgw/contracts';
import { fromBaseUnits, toBaseUnits } from './token-amount';

describe('toBaseUnits', () => {
  it.each([
    ['1.5', 6, 1_500_000n],
    ['0.000001', 6, 1n],
    ['10', 18, 10n * 10n ** 18n],
    ['1.10', 6, 1_100_000n],
  ])('converts %s with %d decimals', (human, decimals, expected) => {
    expect(toBaseUnits(human, decimals, 'amount')).toBe(expected);
  });

  it.each([['0'], ['0.0'], ['-1'], ['1e6'], ['1.'], ['.5'], ['01'], [' 1'], ['abc']])('rejects %p', (human) => {
    expect(() => toBaseUnits(human, 6, 'amount')).toThrow(CodedError);
  });

  it('rejects more fractional digits than the token has, naming the field', () => {
    try {
      toBaseUnits('1.0000001', 6, 'minAmountOut');
      throw new Error('expected a throw');
    } catch (error) {
      expect(error).toBeInstanceOf(CodedError);
      expect((error as CodedError).code).toBe('INVALID_AMOUNT');
      expect((error as CodedError).details).toEqual({ field: 'minAmountOut', decimals: 6 });
    }
  });
});

describe('fromBaseUnits', () => {
  it.each([
    [1_500_000n, 6, '1.5'],
    [1n, 6, '0.000001'],
    [10n * 10n ** 18n, 18, '10'],
    [0n, 6, '0'],
  ])('formats %p with %d decimals as %s', (base, decimals, expected) => {
    expect(fromBaseUnits(base, decimals)).toBe(expected);
  });

  it('round-trips with toBaseUnits', () => {
    expect(fromBaseUnits(toBaseUnits('123.456789', 6, 'amount'), 6)).toBe('123.456789');
  });
});
