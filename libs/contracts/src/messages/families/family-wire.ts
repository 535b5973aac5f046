import type { FamilyWire } from './family-wire-shape';
import { bitcoinWire } from './bitcoin/bitcoin-wire';
import { cosmosWire } from './cosmos/cosmos-wire';
import { evmWire } from './evm/evm-wire';
import { solanaWire } from './solana/solana-wire';

/**
 * What a chain family adds to the wire besides its steps' classes, one entry per family from its own
 * folder (`families/<family>/<family>-wire.ts`): the form of its wallet addresses, how the service
 * pays for its steps, the payloads its wallets are handed. The chain families, the address forms,
 * FAMILY_SPONSORSHIP and SIGNING_PAYLOAD_TYPES are read from this table; the family's classes (its
 * step variants, their specs, its sponsorship modes, its payloads) are registered one level up,
 * in SIGNING_STEP_VARIANTS (signing/signing-steps.ts), which validate against what this table says
 * (a class needs the address patterns and modes first, so the two cannot be one module).
 */
export const FAMILY_WIRE = {
  evm: evmWire,
  solana: solanaWire,
  bitcoin: bitcoinWire,
  cosmos: cosmosWire,
} as const satisfies Record<string, FamilyWire>;

export type { FamilyWire, WalletAddressForm } from './family-wire-shape';
