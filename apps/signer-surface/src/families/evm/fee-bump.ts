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

const min = (a: bigint, b: bigint): bigint => (a < b ? a : b);

/** The most a relayer transaction's `maxFeePerGas` may ever be (RELAYER_FEE_CEILING_*). */
export interface FeeCeilingPolicy {
  /** RELAYER_FEE_CEILING_PERCENT: of the fee cap the transaction was first sent with. */
  percentOfFirst: number;
  /** RELAYER_MAX_FEE_PER_GAS_WEI for the chain, if set: a cap whatever the first fee was. */
  chainMaxFeePerGas?: bigint;
}

/**
 * The fee ceiling of a transaction first sent with `first.maxFeePerGas`: RELAYER_FEE_CEILING_PERCENT
 * of it, no more than the chain's RELAYER_MAX_FEE_PER_GAS_WEI, and no more than one transaction may
 * cost under the budget (`(maxCostWei - value) / gasLimit`). Never under the first fee itself: the
 * transaction was admitted at it.
 */
export function feeCeilingOf(
  firstMaxFeePerGas: bigint,
  policy: FeeCeilingPolicy,
  limits: { gasLimit: bigint; value: bigint; maxCostWei?: bigint },
): bigint {
  let ceiling = (firstMaxFeePerGas * BigInt(policy.percentOfFirst)) / 100n;
  if (policy.chainMaxFeePerGas !== undefined) ceiling = min(ceiling, policy.chainMaxFeePerGas);
  if (limits.maxCostWei !== undefined && limits.gasLimit > 0n) {
    const room = limits.maxCostWei - limits.value;
    ceiling = min(ceiling, room > 0n ? room / limits.gasLimit : 0n);
  }
  return max(ceiling, firstMaxFeePerGas);
}

/** The least raise a node takes for a replacement (geth's and anvil's price bump). */
export const NODE_PRICE_BUMP_PERCENT = 10;

/**
 * What to send in place of a stuck transaction, under its fee ceiling:
 * - `replace`: the same call with both fees raised (replacementFees), the fee cap kept at or under
 *   the call's share of the ceiling, `ceiling × 100 / (100 + bump)`, so that a cancel can still
 *   outbid the last replacement by the bump within the ceiling;
 * - `cancel`: the call cannot be raised by the node's price bump under its share: a zero-value
 *   self-transfer at the same nonce with the fee cap at the ceiling takes the nonce instead;
 * - `hold`: a cancel is already the current attempt (or cannot outbid it): nothing more is sent; the
 *   transaction is left and reported until the fees come down or the nonce is taken.
 */
export type NextAttempt =
  { kind: 'replace'; fees: Eip1559Fees } | { kind: 'cancel'; fees: Eip1559Fees } | { kind: 'hold' };

export function nextAttemptUnderCeiling(
  current: Eip1559Fees & { cancel: boolean },
  suggested: Eip1559Fees,
  bumpPercent: number,
  ceiling: bigint,
): NextAttempt {
  const nodeMinimum = {
    maxFeePerGas: raisedBy(current.maxFeePerGas, NODE_PRICE_BUMP_PERCENT),
    maxPriorityFeePerGas: raisedBy(current.maxPriorityFeePerGas, NODE_PRICE_BUMP_PERCENT),
  };
  if (!current.cancel) {
    const callShare = callShareOf(ceiling, bumpPercent);
    const wanted = replacementFees(current, suggested, bumpPercent);
    const maxFeePerGas = min(wanted.maxFeePerGas, callShare);
    const maxPriorityFeePerGas = min(wanted.maxPriorityFeePerGas, maxFeePerGas);
    if (
      maxFeePerGas >= nodeMinimum.maxFeePerGas &&
      maxPriorityFeePerGas >= nodeMinimum.maxPriorityFeePerGas
    ) {
      return { kind: 'replace', fees: { maxFeePerGas, maxPriorityFeePerGas } };
    }
    const cancelTip = min(
      max(raisedBy(current.maxPriorityFeePerGas, bumpPercent), suggested.maxPriorityFeePerGas),
      ceiling,
    );
    if (ceiling >= nodeMinimum.maxFeePerGas && cancelTip >= nodeMinimum.maxPriorityFeePerGas) {
      return { kind: 'cancel', fees: { maxFeePerGas: ceiling, maxPriorityFeePerGas: cancelTip } };
    }
  }
  return { kind: 'hold' };
}

/** The most a relayed call may bid under `ceiling`: the rest is room for a cancel to outbid it by the bump. */
export function callShareOf(ceiling: bigint, bumpPercent: number): bigint {
  return (ceiling * 100n) / BigInt(100 + bumpPercent);
}

/** Fees as the ledger's attempts keep them (decimal strings of wei). */
export function feesAsStrings(fees: Eip1559Fees): { maxFeePerGas: string; maxPriorityFeePerGas: string } {
  return {
    maxFeePerGas: fees.maxFeePerGas.toString(),
    maxPriorityFeePerGas: fees.maxPriorityFeePerGas.toString(),
  };
}
