import type { RouteLeg } from '@swapgw/contracts';
import type { ChainFamily } from '../chain-descriptor';
import type {
  LegStepChains,
  LegStepInput,
  LegStepSpec,
  StepSpecChains,
  StepSpecFamily,
} from './step-spec-family';
import { FAMILY_MODULES } from './family-modules';
import type { SignedArtifactCodecs } from './signed-artifact-codec';

/**
 * How each chain family expresses a swap's signing steps: @swapgw/chains' `splitSteps` decides which
 * steps a route has, a family's StepSpecFamily writes each of them out (an EVM call or typed data,
 * a Solana transaction spec) and says how a bridge pays out to a chain of that family (the interface,
 * step-spec-family.ts, sits below the families; this registry above them, reading each family's
 * `steps` in the family-modules table). The execution planner looks the family up here and never
 * branches on a family itself.
 */

type FamilyModules = typeof FAMILY_MODULES;

/**
 * What a wallet hands back for each family's steps, read by the family (signed-artifact.ts decodes
 * and checks through it): each family's `artifacts` in the family-modules table, beside its step
 * builder, since it is what signing that step returns.
 */
export const SIGNED_ARTIFACT_CODECS = Object.fromEntries(
  Object.entries(FAMILY_MODULES).map(([family, module]) => [family, module.artifacts]),
) as { [F in ChainFamily]: FamilyModules[F]['artifacts'] } satisfies SignedArtifactCodecs;

/** Every family declares its codec in SignedArtifactCodecs (the artifact types' union), and no other name. */
const CODECS_DECLARED: [keyof SignedArtifactCodecs] extends [ChainFamily]
  ? [ChainFamily] extends [keyof SignedArtifactCodecs]
    ? true
    : false
  : false = true;
void CODECS_DECLARED;

/** The step building of `family`; throws for a family no swap signs on. */
export function stepSpecFamilyOf(family: ChainFamily): StepSpecFamily {
  const found = Object.hasOwn(FAMILY_MODULES, family) ? FAMILY_MODULES[family].steps : undefined;
  if (!found) throw new Error(`Chains of the ${family} family have no signing steps`);
  return found;
}

/** Whether legs on `family`'s chains can carry a permit (EIP-2612, Permit2). */
export function familyHasPermits(family: ChainFamily): boolean {
  return (Object.hasOwn(FAMILY_MODULES, family) && FAMILY_MODULES[family].steps.permits) || false;
}

/** The step of a leg, written out by the family of the leg's chain. */
export function legStepSpecOf(input: LegStepInput, chains: StepSpecChains): LegStepSpec {
  const family = stepSpecFamilyOf(chains.familyOf(input.leg.chain));
  if (!input.step.forwards) return family.stepOf(input, legStepChainsOf(chains));
  // A forwarding bridge pays the destination's forwarding account, which runs the legs after it.
  const destination = stepSpecFamilyOf(chains.familyOf(destinationChainOf(input.leg)));
  if (!destination.forwardingOf)
    throw new Error(
      `Bridge leg on ${input.leg.chain}: ${input.leg.destinationChain} has no forwarding accounts`,
    );
  const forwarding = destination.forwardingOf(
    input.leg,
    input.following ?? [],
    input.minOut,
    input.finalRecipient,
    chains,
  );
  const spec = family.stepOf({ ...input, recipient: forwarding.address }, legStepChainsOf(chains));
  return { ...spec, nobleForwarding: forwarding };
}

/** `chains` with a bridge's destination answered by the family of the chain it delivers to. */
function legStepChainsOf(chains: StepSpecChains): LegStepChains {
  return {
    familyOf: (chain) => chains.familyOf(chain),
    evmChainIdOf: (chain) => chains.evmChainIdOf(chain),
    permitContractsOf: (chain) => chains.permitContractsOf?.(chain),
    tokenPermitOf: (chain, token) => chains.tokenPermitOf?.(chain, token),
    descriptorOf: (chain) => chains.descriptorOf?.(chain),
    bridgePayoutOf: (leg, recipient) =>
      stepSpecFamilyOf(chains.familyOf(destinationChainOf(leg))).bridgePayoutOf(leg, recipient, chains),
    destinationSwapOf: ({ leg: bridge, next: swap, minOut, finalRecipient, deadline }) => {
      if (!swap) throw new Error(`Bridge-swap leg on ${bridge.chain} is the route's last leg`);
      const destination = stepSpecFamilyOf(chains.familyOf(destinationChainOf(bridge)));
      if (!destination.destinationSwapOf)
        throw new Error(`Swap leg on ${swap.chain} cannot run through its SwapGatewayRouter`);
      return destination.destinationSwapOf(bridge, swap, minOut, finalRecipient, deadline, chains);
    },
  };
}

/** The chain a bridge leg delivers to. */
function destinationChainOf(leg: RouteLeg): string {
  if (!leg.destinationChain) throw new Error(`Bridge leg on ${leg.chain} has no destinationChain`);
  return leg.destinationChain;
}
