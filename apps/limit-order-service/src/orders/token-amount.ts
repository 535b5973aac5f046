import { CodedError, DECIMAL_AMOUNT, ErrorCodes } from '@swapgw/contracts';

/**
 * Converts a human decimal string ("1.5") to base units (1500000n for 6 decimals). Rejects
 * zero, signs, exponents and more fractional digits than the token has: money never goes
 * through floating point.
 */
export function toBaseUnits(human: string, decimals: number, field: string): bigint {
  if (!DECIMAL_AMOUNT.test(human)) {
    throw new CodedError(ErrorCodes.INVALID_AMOUNT, `${field} must be a positive decimal string`, { field });
  }
  const [whole, fraction = ''] = human.split('.');
  if (fraction.length > decimals) {
    throw new CodedError(ErrorCodes.INVALID_AMOUNT, `${field} has more than ${decimals} decimals`, {
      field,
      decimals,
    });
  }
  const base = BigInt(whole) * 10n ** BigInt(decimals) + BigInt(fraction.padEnd(decimals, '0') || '0');
  if (base <= 0n) {
    throw new CodedError(ErrorCodes.INVALID_AMOUNT, `${field} must be greater than zero`, { field });
  }
  return base;
}

/** Base units back to the shortest human decimal string ("1500000", 6 → "1.5"). */
export function fromBaseUnits(base: bigint, decimals: number): string {
  const negative = base < 0n;
  const abs = negative ? -base : base;
  const scale = 10n ** BigInt(decimals);
  const whole = abs / scale;
  const fraction = (abs % scale).toString().padStart(decimals, '0').replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}
