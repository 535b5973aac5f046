import type { ChainFamily } from './chain-descriptor';
import { findFamilyTraits } from './families/family-traits-table';

/**
 * Whether two spellings of one address of the family are the same address is the family's trait
 * (`caseInsensitiveAddresses`): EVM hex is case-insensitive (EIP-55 only adds a checksum in the
 * letter case); base58 (Solana keys and mints, Bitcoin legacy addresses) is case-sensitive, so it is
 * compared as written.
 */

/** The address in the one spelling the family compares by (EVM: lower case; others: as written). */
export function addressKey(family: ChainFamily, address: string): string {
  return findFamilyTraits(family)?.caseInsensitiveAddresses ? address.toLowerCase() : address;
}

/**
 * Same token on a chain of `family`: both addresses (EVM contract, Solana mint) equal in the
 * family's comparison, or both null (the native coin).
 */
export function sameTokenAddress(family: ChainFamily, a: string | null, b: string | null): boolean {
  if (a === null || b === null) return a === b;
  return addressKey(family, a) === addressKey(family, b);
}

/**
 * `addressKey` where the chain is not at hand (a request's fingerprint before its quote is read):
 * the address's own form tells the family, since only EVM addresses start with 0x ('0' is outside
 * base58, and bech32 addresses start with bc1).
 */
export function addressKeyByForm(address: string): string {
  return address.startsWith('0x') ? addressKey('evm', address) : address;
}
