import { CodedError, ErrorCodes, HUMAN_AMOUNT } from '@swapgw/contracts';

/**
 * Human decimal string → base units, exactly (bigint, no floats). Rejects signs, exponents,
 * zero, and more fractional digits than the token has (INVALID_AMOUNT).
 */
export function toBaseUnits(amount: string, decimals: number): bigint {
  const trimmed = amount.trim();
  if (!HUMAN_AMOUNT.test(trimmed)) {
    throw new CodedError(ErrorCodes.INVALID_AMOUNT, `amount "${amount}" is not a positive decimal string such as "1.5"`);
  }
  const [whole, fraction = ''] = trimmed.split('.');
  if (fraction.length > decimals) {
    throw new CodedError(ErrorCodes.INVALID_AMOUNT, `amount "${amount}" has ${fraction.length} decimals; the token has ${decimals}`, {
      decimals,
    });
  }
  const units = BigInt(whole) * 10n ** BigInt(decimals) + BigInt(fraction.padEnd(decimals, '0') || '0');
  if (units <= 0n) throw new CodedError(ErrorCodes.INVALID_AMOUNT, 'amount must be greater than zero');
  return units;
}

/** Base units → human decimal string without trailing zeros ("1500000", 6 → "1.5"). */
export function fromBaseUnits(units: bigint, decimals: number): string {
  const negative = units < 0n;
  const abs = negative ? -units : units;
  const base = 10n ** BigInt(decimals);
  const whole = abs / base;
  const fraction = (abs % base).toString().padStart(decimals, '0').replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

export const BPS_DENOMINATOR = 10_000n;

/** The least amount accepted after slippage: floor(amount × (10000 − bps) / 10000). */
export function applySlippage(amount: bigint, slippageBps: number): bigint {
  if (!Number.isInteger(slippageBps) || slippageBps < 0 || slippageBps >= 10_000) {
    throw new RangeError(`slippageBps ${slippageBps} outside [0, 10000)`);
  }
  return (amount * (BPS_DENOMINATOR - BigInt(slippageBps))) / BPS_DENOMINATOR;
}

/** Amount left after a fee in basis points, rounded down like the bridge contract does. */
export function afterFeeBps(amount: bigint, feeBps: number): bigint {
  return amount - (amount * BigInt(feeBps)) / BPS_DENOMINATOR;
}
