import type { ChainFamily } from '../chain-descriptor';
import { bitcoinFamilyModule } from './bitcoin';
import { cosmosFamilyModule } from './cosmos';
import { evmFamilyModule } from './evm';
import type { ChainFamilyModule } from './family-module';
import { solanaFamilyModule } from './solana';

/**
 * Each chain family's modules (family-module.ts), from its own folder: its chains' client, its step
 * builder, its signed artifacts' codec. ChainFamilies, the step registry (step-spec-families.ts) and
 * signed-artifact.ts read this table; a new family plugs in with its entry here and its folder's
 * exports below. The @swapgw/chains/families entry point's, as the clients load what @swapgw/chains'
 * main entry does not (@solana/spl-token); the family's traits, which the main entry reads, are in
 * family-traits-table.ts.
 */
export const FAMILY_MODULES = {
  evm: evmFamilyModule,
  solana: solanaFamilyModule,
  bitcoin: bitcoinFamilyModule,
  cosmos: cosmosFamilyModule,
} satisfies Record<ChainFamily, ChainFamilyModule>;

/** Each family's public names, part of @swapgw/chains/families. */
export * from './evm';
export * from './solana';
export * from './bitcoin';
export * from './cosmos';
