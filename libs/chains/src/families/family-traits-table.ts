import type { ChainFamily } from '../chain-descriptor';
import { bitcoinTraits } from './bitcoin/bitcoin-traits';
import { cosmosTraits } from './cosmos/cosmos-traits';
import { evmTraits } from './evm/evm-traits';
import type { SignaturePayloadType } from '@swapgw/contracts';
import type { FamilyTraits, StepSigning } from './family-traits';
import { solanaTraits } from './solana/solana-traits';

/**
 * Each chain family's traits (family-traits.ts), from its own folder: the one table the shared
 * modules (address-validation, address-keys, token-refs, step-split, sponsored-gas) ask. A new
 * family plugs in with one entry here. Light on purpose: part of @swapgw/chains' main entry point,
 * it loads no chain client.
 */
const FAMILY_TRAITS: Record<ChainFamily, FamilyTraits> = {
  evm: evmTraits,
  solana: solanaTraits,
  bitcoin: bitcoinTraits,
  cosmos: cosmosTraits,
};

/** The traits of `family`; throws for a name no family has. */
export function familyTraitsOf(family: ChainFamily): FamilyTraits {
  const traits = findFamilyTraits(family);
  if (!traits) throw new Error(`${family} is not a chain family`);
  return traits;
}

/** The payload a wallet is handed for a step signed as `signing`, asked of the family that signs so. */
export function payloadTypeOfSigning(signing: StepSigning): SignaturePayloadType {
  for (const traits of Object.values(FAMILY_TRAITS)) {
    const payloadType = traits.payloadTypes[signing];
    if (payloadType) return payloadType;
  }
  throw new Error(`No chain family signs ${signing}`);
}

/** The traits of `family`, undefined when it names no family (or none is given). */
export function findFamilyTraits(family: string | undefined): FamilyTraits | undefined {
  return family !== undefined && Object.hasOwn(FAMILY_TRAITS, family)
    ? FAMILY_TRAITS[family as ChainFamily]
    : undefined;
}
