import { ACROSS_PROVIDER } from './families/evm/across-calldata';
import type {
  SplitStep,
  StepSigning,
  StepSplitChains,
  StepSplitLeg,
  StepSplitOptions,
} from './families/family-traits';
import { findFamilyTraits } from './families/family-traits-table';
import { permitLegProblem } from './permit-contracts';

/**
 * How a route's legs become the steps a wallet signs, in signing order: the one decision that
 * execution-planner's `planSteps` encodes into calls and quote-service's `signaturesOf` announces
 * ahead of a build. Pure: no chain reads, no calldata. Each family splits its own legs (its traits'
 * `splitLeg`, in `families/<family>/`); here the route around them.
 */

export type { SplitStep, StepSigning, StepSplitChains, StepSplitLeg, StepSplitOptions };

/**
 * The steps of a route, in order. Each leg's are its family's (`splitLeg` of its traits): on Solana
 * one transaction, on Bitcoin one PSBT, on Cosmos one SignDoc (none for a swap run on arrival or a
 * leg continuing the previous one), on EVM the leg's transaction or Permit2 witness after the
 * approve it may need (families/evm/evm-traits.ts). A sponsored bridge into a swap through both
 * chains' routers (bridgeSwapLegOf) is signed once on the source: the swap leg has no steps; nor do
 * the legs after a forwarding bridge (forwardingLegOf). Legs on chains of an unknown family have none.
 */
export function splitSteps(
  legs: readonly StepSplitLeg[],
  chains: StepSplitChains,
  options: StepSplitOptions,
): SplitStep[] {
  const bridgeSwapAt = options.gasPayment === 'sponsored' ? bridgeSwapLegOf(legs, chains) : null;
  const forwardingAt = forwardingLegOf(legs, chains);
  const steps: SplitStep[] = [];
  legs.forEach((leg, legIndex) => {
    // The destination swap of a bridge-swap runs from the bridge leg's signature: no steps of its own.
    if (bridgeSwapAt !== null && legIndex === bridgeSwapAt + 1) return;
    // Past a forwarding bridge, the legs run from the forwarding account: no steps either.
    if (forwardingAt !== null && legIndex > forwardingAt) return;
    const own = (signing: StepSigning): SplitStep => ({
      legIndex,
      kind: leg.kind,
      signing,
      ...(legIndex === bridgeSwapAt ? { bridgeSwap: true as const } : {}),
      ...(legIndex === forwardingAt ? { forwards: true as const } : {}),
    });
    const approve = (signing: StepSigning, approves: 'permit2' | 'spender'): SplitStep => ({
      legIndex,
      kind: 'approve',
      signing,
      approves,
    });
    // Legs on chains the caller does not know have none.
    const traits = findFamilyTraits(chains.familyOf(leg.chain));
    if (traits) steps.push(...traits.splitLeg({ leg, legIndex, legs, chains, options, own, approve }));
  });
  return steps;
}

/**
 * The index of the bridge leg whose payout a forwarding account sends on, or null: a bridge from a
 * chain of another family into a chain of a family that forwards bridge payouts (its traits'
 * `forwardsBridgePayouts`: Cosmos), followed by a bridge leaving that chain (an IBC transfer from
 * Noble). Its deposit can name only a 32-byte account, so it names Noble's forwarding account for the
 * rest of the route, which runs from there with no signature (docs/chains.md, "Multi-leg routes").
 */
export function forwardingLegOf(
  legs: readonly StepSplitLeg[],
  chains: Pick<StepSplitChains, 'familyOf'>,
): number | null {
  const at = legs.findIndex(
    (leg, index) =>
      leg.kind === 'bridge' &&
      leg.destinationChain !== undefined &&
      forwardsInto(chains, leg.chain, leg.destinationChain) &&
      legs[index + 1]?.kind === 'bridge' &&
      legs[index + 1]?.chain === leg.destinationChain,
  );
  return at < 0 ? null : at;
}

/** Whether a bridge from `source` into `destination` pays a forwarding account there. */
function forwardsInto(
  chains: Pick<StepSplitChains, 'familyOf'>,
  source: string,
  destination: string,
): boolean {
  const family = chains.familyOf(destination);
  return chains.familyOf(source) !== family && findFamilyTraits(family)?.forwardsBridgePayouts === true;
}

/**
 * The index of the bridge leg whose destination swap can run from the source chain's signature, or
 * null: the route's last two legs are a bridge and a swap on the EVM chain it delivers to through
 * that chain's SwapGatewayRouter (its permit contracts, and the Uniswap router it calls), and the
 * swap starts with the bridged token. The bridge leaves either an EVM chain through that chain's
 * SwapGatewayRouter (permit contracts there, the bridge or SpokePool it calls), or Solana as the
 * devnet bridge deposit (an SPL token into the vault, not a prebuilt transaction), whose memo
 * carries the swap. The devnet bridge's message carries a Uniswap V2 swap (an address[] path),
 * Across's a Uniswap V3 one (its handleV3AcrossMessage swaps through SwapRouter02).
 */
export function bridgeSwapLegOf(
  legs: readonly StepSplitLeg[],
  chains: Pick<StepSplitChains, 'familyOf' | 'permitContractsOf'>,
): number | null {
  const at = legs.length - 2;
  if (at < 0) return null;
  const [bridge, swap] = [legs[at], legs[at + 1]];
  if (bridge.kind !== 'bridge' || swap.kind !== 'swap' || bridge.destinationChain !== swap.chain) return null;
  if (chains.familyOf(swap.chain) !== 'evm') return null;
  const destination = chains.permitContractsOf?.(swap.chain);
  // BridgeSwapMessage carries a V2 path (address[]), AcrossSwapMessage a V3 one (bytes).
  const v3 = bridge.provider === ACROSS_PROVIDER;
  if (!destination || Boolean(swap.poolFees) !== v3 || permitLegProblem(swap, destination) !== null)
    return null;
  const sourceFamily = chains.familyOf(bridge.chain);
  if (sourceFamily === 'solana') {
    if (bridge.tokenIn.address === null || bridge.solanaTransaction || bridge.call) return null;
  } else {
    const source = chains.permitContractsOf?.(bridge.chain);
    if (sourceFamily !== 'evm' || !source || permitLegProblem(bridge, source, { sponsored: true }) !== null)
      return null;
  }
  const bridged = bridge.tokenOut.address?.toLowerCase();
  if (bridged === undefined) return null;
  const startsWithBridged = swap.tokenIn.address?.toLowerCase() === bridged;
  return startsWithBridged && swap.path?.[0]?.toLowerCase() === bridged ? at : null;
}
