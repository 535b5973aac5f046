import { ChainRegistry, permitLegProblem } from '@swapgw/chains';
import type { RouteLeg, RouteSignature } from '@swapgw/contracts';

/**
 * The signatures a default (sponsored) build of a route asks of the wallet, in signing order: the
 * steps execution-planner expands the route into (its `planSteps` with gasPayment sponsored), told
 * ahead so a wallet can show them before the first one. Per leg:
 *  - Solana: one transaction (the service is fee payer);
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
  const familyOf = (chain: string) => registry.find(chain)?.family;
  const bridgeSwapAt = bridgeSwapLegOf(registry, legs);
  const signatures: RouteSignature[] = [];
  legs.forEach((leg, index) => {
    if (bridgeSwapAt !== null && index === bridgeSwapAt + 1) return;
    const family = familyOf(leg.chain);
    if (family === 'solana') {
      signatures.push({
        chain: leg.chain,
        kind: leg.kind,
        payloadType: 'solana-versioned-transaction',
        mayBeSkipped: false,
      });
      return;
    }
    if (family !== 'evm') return;
    const token = leg.tokenIn.address;
    const contracts = registry.permitContracts(leg.chain);
    if (token !== null && contracts && permitLegProblem(leg, contracts) === null) {
      const approveType = registry.tokenPermitOf(leg.chain, token) ? 'evm-typed-data' : 'evm-transaction';
      signatures.push({ chain: leg.chain, kind: 'approve', payloadType: approveType, mayBeSkipped: true });
      signatures.push({
        chain: leg.chain,
        kind: leg.kind,
        payloadType: 'evm-typed-data',
        mayBeSkipped: false,
      });
      return;
    }
    if (token !== null)
      signatures.push({
        chain: leg.chain,
        kind: 'approve',
        payloadType: 'evm-transaction',
        mayBeSkipped: true,
      });
    signatures.push({
      chain: leg.chain,
      kind: leg.kind,
      payloadType: 'evm-transaction',
      mayBeSkipped: false,
    });
  });
  return signatures;
}

/**
 * The bridge leg whose destination swap runs from the source's signature, or null: the same test as
 * execution-planner's `bridgeSwapLegOf` (the last two legs are a bridge and a swap on the EVM chain
 * it delivers to, both through SwapGatewayRouters, or the bridge leaves Solana as the devnet bridge
 * deposit; the swap starts with the bridged token).
 */
function bridgeSwapLegOf(registry: ChainRegistry, legs: readonly RouteLeg[]): number | null {
  const at = legs.length - 2;
  if (at < 0) return null;
  const [bridge, swap] = [legs[at], legs[at + 1]];
  if (bridge.kind !== 'bridge' || swap.kind !== 'swap' || bridge.destinationChain !== swap.chain) return null;
  if (registry.find(swap.chain)?.family !== 'evm') return null;
  const destination = registry.permitContracts(swap.chain);
  if (!destination || permitLegProblem(swap, destination) !== null) return null;
  const sourceFamily = registry.find(bridge.chain)?.family;
  if (sourceFamily === 'solana') {
    if (bridge.tokenIn.address === null || bridge.solanaTransaction || bridge.call) return null;
  } else {
    const source = registry.permitContracts(bridge.chain);
    if (sourceFamily !== 'evm' || !source || permitLegProblem(bridge, source) !== null) return null;
  }
  const bridged = bridge.tokenOut.address?.toLowerCase();
  if (
    bridged === undefined ||
    swap.tokenIn.address?.toLowerCase() !== bridged ||
    swap.path?.[0]?.toLowerCase() !== bridged
  )
    return null;
  return at;
}
