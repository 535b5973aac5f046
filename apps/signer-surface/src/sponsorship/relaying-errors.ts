import { CodedError, ErrorCodes } from '@swapgw/contracts';

/** No relayer can pay on the chain now: none configured, all under the minimum balance, no RPC. */
export function sponsorshipUnavailable(chain: string, why: string): CodedError {
  return new CodedError(
    ErrorCodes.SPONSORSHIP_UNAVAILABLE,
    `Gas sponsorship on ${chain} is unavailable: ${why}`,
    { chain },
  );
}

/** The owner's daily budget on the chain cannot take the estimate; it resets at 00:00 UTC. */
export function sponsorshipBudgetExhausted(
  chain: string,
  budget: { limitWei: bigint; spentWei: bigint; estimatedCostWei: bigint; resetsAtMs: number },
): CodedError {
  return new CodedError(
    ErrorCodes.SPONSORSHIP_BUDGET_EXHAUSTED,
    `The daily gas sponsorship budget on ${chain} is spent (${budget.spentWei} of ${budget.limitWei} wei used, ${budget.estimatedCostWei} more needed)`,
    {
      chain,
      budgetWei: budget.limitWei.toString(),
      spentWei: budget.spentWei.toString(),
      estimatedCostWei: budget.estimatedCostWei.toString(),
      resetsAtMs: budget.resetsAtMs,
    },
  );
}

/** The chain refuses the call (its gas estimate reverts, or the node rejects the transaction). */
export function sponsoredCallRefused(chain: string, reason: string): CodedError {
  return new CodedError(
    ErrorCodes.TX_REQUEST_INVALID,
    `The sponsored transaction cannot be sent on ${chain}: ${reason}`,
    { chain, reason },
  );
}

/** The chain's RPC did not answer: no signing surface for now. */
export function chainUnreachable(chain: string, message: string): CodedError {
  return new CodedError(
    ErrorCodes.SIGNING_SURFACE_UNAVAILABLE,
    `The RPC of ${chain} did not answer: ${message}`,
    { chains: [chain] },
  );
}
