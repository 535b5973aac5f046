import { ChainRegistry, type SponsoredLegView, splitSteps } from '@swapgw/chains';
import type { RouteLeg } from '@swapgw/contracts';

/** What the fee granter pays for a Cosmos leg: its transaction's fee, and the grant that may come first. */
export type CosmosLegCoverage = Pick<SponsoredLegView, 'cosmosSigned' | 'cosmosFeeGrant'>;

/**
 * The Cosmos legs of a route whose transaction the wallet signs (the steps of a sponsored build,
 * @swapgw/chains `splitSteps`: a swap run on arrival by the IBC transfer before it, or a leg that
 * continues the previous one, signs nothing), by leg index; the first of them on each chain also
 * counts the fee granter's grant (the wallet may have no allowance yet: an upper bound).
 */
export function cosmosLegCoverageOf(
  registry: ChainRegistry,
  legs: readonly RouteLeg[],
): Map<number, CosmosLegCoverage> {
  const steps = splitSteps(
    legs,
    { familyOf: (chain) => registry.find(chain)?.family },
    { gasPayment: 'sponsored' },
  );
  const granted = new Set<string>();
  const coverage = new Map<number, CosmosLegCoverage>();
  for (const step of steps) {
    if (step.signing !== 'cosmos-sign-direct') continue;
    const chain = legs[step.legIndex].chain;
    coverage.set(step.legIndex, { cosmosSigned: true, cosmosFeeGrant: !granted.has(chain) });
    granted.add(chain);
  }
  return coverage;
}
