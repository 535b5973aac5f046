import { type ChainFamily, forwardingLegOf } from '@swapgw/chains';
import { RoutePlan } from '@swapgw/contracts';

export const balanceKey = (chain: string, token: string | null): string =>
  `${chain}:${(token ?? 'native').toLowerCase()}`;

/**
 * Balances the plan needs before it can be expanded: the tokens that bridge legs deliver, held by
 * the wallet of the destination chain (`holderOn`, see SwapWallets.walletOn). From a forwarding
 * bridge on (forwardingLegOf) none: no step waits for what a forwarding account receives.
 */
export function balancesToRead(
  plan: RoutePlan,
  holderOn: (chain: string) => string,
  familyOf: (chain: string) => ChainFamily | undefined,
): { chain: string; token: string | null; holder: string }[] {
  const forwardingAt = forwardingLegOf(plan.legs, { familyOf });
  return plan.legs
    .filter(
      (leg, i) =>
        leg.kind === 'bridge' && i < plan.legs.length - 1 && (forwardingAt === null || i < forwardingAt),
    )
    .map((leg) => ({
      chain: leg.tokenOut.chain,
      token: leg.tokenOut.address,
      holder: holderOn(leg.tokenOut.chain),
    }));
}
