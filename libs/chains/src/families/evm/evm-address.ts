import { getAddress } from 'ethers';

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
