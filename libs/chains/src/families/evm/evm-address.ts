import { getAddress } from 'ethers';
import type { AddressValidation } from '../family-traits';

/**
 * How many addresses the checksum memo holds: a busy gateway's wallets of the last minutes, tokens,
 * pools and contracts. Past it, the oldest entry goes first.
 */
const MEMO_LIMIT = 20_000;

/** Address as given (any case) → its EIP-55 form, for addresses already checksummed once. */
const checksums = new Map<string, string>();

/**
 * The EIP-55 checksummed form of an EVM address, as ethers' `getAddress` gives it (and throwing as
 * it does for anything that is not an address), remembered per spelling. The checksum is a
 * Keccak-256 of the address, which the profiles of a flood showed among the services' top frames:
 * every quote, plan and payload checksums the same tokens, pools and wallets again.
 */
export function checksumEvmAddress(address: string): string {
  const known = checksums.get(address);
  if (known !== undefined) return known;
  const checksummed = getAddress(address);
  if (checksums.size >= MEMO_LIMIT) checksums.delete(checksums.keys().next().value as string);
  checksums.set(address, checksummed);
  return checksummed;
}

const EVM_HEX = /^0x[0-9a-fA-F]{40}$/;

/**
 * EVM: 0x and 40 hex digits, either all lower-case or with a valid EIP-55 checksum. Any other
 * letter case (a wrong checksum, or all upper-case, which ethers would accept) is refused: it is
 * either a typo or not what a wallet shows.
 */
export function validateEvmAddress(address: string): AddressValidation {
  if (!EVM_HEX.test(address))
    return { ok: false, reason: 'an EVM address is 0x followed by 40 hexadecimal digits' };
  if (address.slice(2) === address.slice(2).toLowerCase()) return { ok: true };
  return checksumEvmAddress(address.toLowerCase()) === address
    ? { ok: true }
    : {
        ok: false,
        reason:
          'the EIP-55 checksum (letter case) of this EVM address is wrong; use the checksummed or the all-lower-case form',
      };
}
