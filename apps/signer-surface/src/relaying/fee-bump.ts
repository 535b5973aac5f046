/** EIP-1559 fees of one transaction, in wei. */
export interface Eip1559Fees {
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
}

/** `value` raised by `percent`, rounded up, and by at least 1 wei (a 0 tip must still rise). */
export function raisedBy(value: bigint, percent: number): bigint {
  const raised = (value * BigInt(100 + percent) + 99n) / 100n;
  return raised > value ? raised : value + 1n;
}

const max = (a: bigint, b: bigint): bigint => (a > b ? a : b);

/**
 * Fees of a replacement (same nonce): both fees raised by `percent` over the stuck attempt's, since
 * nodes accept a replacement only when both rise by their price bump (10% in geth), and never
 * below what the node suggests now (the base fee may have risen past the old cap). The fee cap is
 * kept at or above the tip, as EIP-1559 requires.
 */
export function replacementFees(current: Eip1559Fees, suggested: Eip1559Fees, percent: number): Eip1559Fees {
  const maxPriorityFeePerGas = max(
    raisedBy(current.maxPriorityFeePerGas, percent),
    suggested.maxPriorityFeePerGas,
  );
  const maxFeePerGas = max(
    max(raisedBy(current.maxFeePerGas, percent), suggested.maxFeePerGas),
    maxPriorityFeePerGas,
  );
  return { maxFeePerGas, maxPriorityFeePerGas };
}

/** The most a transaction can cost: every unit of gas at the fee cap, plus the value it moves. */
export function maxCostOf(gasLimit: bigint, maxFeePerGas: bigint, value: bigint): bigint {
  return gasLimit * maxFeePerGas + value;
}
