import { ChainRegistry, payloadTypeOfSigning, splitSteps } from '@swapgw/chains';
import type { RouteLeg, RouteSignature } from '@swapgw/contracts';

/**
 * The signatures a default (sponsored) build of a route asks of the wallet, in signing order: the
 * steps execution-planner expands the route into (both follow @swapgw/chains' `splitSteps` with
 * gasPayment sponsored), told ahead so a wallet can show them before the first one, each with the
 * payload its family hands the wallet for it (FamilyTraits.payloadTypes). Per leg:
 *  - Solana: one transaction (the service is fee payer);
 *  - Bitcoin: one PSBT (the service's fee input pays the miner);
 *  - Cosmos: one SignDoc, the fee paid by the service's fee granter; an IBC transfer into a swap on
 *    Osmosis is one signature (the swap runs on arrival);
 *  - EVM ERC-20 input through the chain's SwapGatewayRouter: an approve of Permit2 (typed data, the
 *    token's EIP-2612 permit, when the token has one; else the user's own approve transaction,
 *    whose gas the service sends first), then the leg as a Permit2 witness (typed data);
 *  - any other EVM leg: an approve transaction when the input is an ERC-20, then the leg's
 *    transaction (gas covered first);
 *  - a bridge into a swap through both chains' routers (from EVM or from Solana's devnet bridge) is
 *    signed once on the source: the swap leg asks nothing.
 * Every approve may be skipped at build time: when the wallet's allowance is already there the step
 * is never offered (it reads `skipped`), so the list is an upper bound, equal to `signing.step.total`.
 * A user-paid build (gasPayment user, or a build with its own permit) signs other payloads.
 */
export function signaturesOf(registry: ChainRegistry, legs: readonly RouteLeg[]): RouteSignature[] {
  const chains = {
    familyOf: (chain: string) => registry.find(chain)?.family,
    permitContractsOf: (chain: string) => registry.permitContracts(chain),
    tokenPermitOf: (chain: string, token: string) => registry.tokenPermitOf(chain, token),
  };
  return splitSteps(legs, chains, { gasPayment: 'sponsored' }).map((step) => ({
    chain: legs[step.legIndex].chain,
    kind: step.kind,
    payloadType: payloadTypeOfSigning(step.signing),
    mayBeSkipped: step.kind === 'approve',
  }));
}
