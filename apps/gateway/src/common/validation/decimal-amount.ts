const DECIMAL = /^(0|[1-9]\d*)(\.(\d+))?$/;
/** Enough for any uint256 amount written in whole units. */
const MAX_LENGTH = 100;

export interface DecimalAmountOptions {
  /** Largest number of digits after the point (e.g. the token decimals); unlimited when unset. */
  maxDecimals?: number;
}

/**
 * A human amount as the API takes it: a positive decimal string without sign, exponent, spaces,
 * leading zeros or a bare point ("1", "0.5", "1500.25"). Never a number, so no float rounding.
 */
export function isPositiveDecimalString(value: unknown, options: DecimalAmountOptions = {}): value is string {
  if (typeof value !== 'string' || value.length > MAX_LENGTH) return false;
  const match = DECIMAL.exec(value);
  if (!match) return false;
  const fraction = match[3] ?? '';
  if (options.maxDecimals !== undefined && fraction.length > options.maxDecimals) return false;
  return /[1-9]/.test(match[1] + fraction);
}
