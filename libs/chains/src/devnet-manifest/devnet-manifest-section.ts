import type { ChainDeployments } from '../catalog/chain-catalog';
import type { ChainDescriptor } from '../chain-descriptor';
import type { ListedToken } from '../families/family-traits';

/** What a section's listed tokens are read with: the registry's chains and the devnet bridge's ends. */
export interface SectionTokenLookup {
  /** A listed chain (throws for an unknown one). */
  chain(id: string): ChainDescriptor;
  find(id: string): ChainDescriptor | undefined;
  /** How many chains the devnet bridge has an end on (its token reaches the others). */
  bridgeEnds: number;
  /** The sections (by their key in the manifest) whose `hasBridgeEnd` says they hold one. */
  sectionsWithBridgeEnd: ReadonlySet<string>;
}

/**
 * One family's section of the devnet manifest, as its folder registers it in
 * devnet-manifest-sections.ts: its structural check, and what the chain registry reads of it (its
 * chains' descriptors, what the gateway uses on them, its coins and tokens).
 */
export interface DevnetManifestSection<View> {
  /** Structural check of the section as parsed; one message per problem, empty when valid. */
  problems(section: unknown): string[];
  /** Its chains, listed after the EVM devnet chains and before the real networks. */
  descriptors(section: View): ChainDescriptor[];
  /** What the gateway uses on its chains (its tokens), when the section lists them. */
  deployments?(section: View): ChainDeployments[];
  /** How many ends of the devnet bridge its chains are (none when absent). */
  bridgeEnds?(section: View): number;
  /** Whether one of its chains holds an end of the devnet bridge (read by other sections' listings). */
  hasBridgeEnd?(section: View): boolean;
  /** Each of its chains' native coin and tokens, in the manifest's order. */
  listedTokens(section: View, lookup: SectionTokenLookup): ListedToken[];
}
