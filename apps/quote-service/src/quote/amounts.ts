import { termsAmountToBaseUnits } from '@swapgw/chains';

/**
 * Human decimal string → base units, exactly (bigint, no floats): the terms check shared with
 * limit-order-service (@swapgw/chains quote-terms), so both answer the same INVALID_AMOUNT.
 */
export function toBaseUnits(amount: string, decimals: number): bigint {
  return termsAmountToBaseUnits(amount, decimals, 'amount');
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
