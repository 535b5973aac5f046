import { termsAmountToBaseUnits } from '@swapgw/chains';
import { fromBaseUnits } from './token-amount';

describe('fromBaseUnits', () => {
  it.each([
    [1_500_000n, 6, '1.5'],
    [1n, 6, '0.000001'],
    [10n * 10n ** 18n, 18, '10'],
    [0n, 6, '0'],
  ])('formats %p with %d decimals as %s', (base, decimals, expected) => {
    expect(fromBaseUnits(base, decimals)).toBe(expected);
  });

  it('round-trips with the terms check that reads amounts', () => {
    expect(fromBaseUnits(termsAmountToBaseUnits('123.456789', 6, 'amount'), 6)).toBe('123.456789');
  });
});
