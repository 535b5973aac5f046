import { checksumEvmAddress } from '../families/evm/evm-address';
import type { UintLike } from './intent-types';

// Caller values made into what typed data and calldata carry (checksummed addresses, decimal uints),
// refusing with SponsoredIntentError what the contracts would refuse.

/** Typed data or a signature that cannot become a sponsored call as it is. */
export class SponsoredIntentError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SponsoredIntentError';
  }
}

const MAX_UINT256 = (1n << 256n) - 1n;

export function uint32String(value: UintLike, field: string): string {
  const parsed = uintString(value, field);
  if (BigInt(parsed) >= 1n << 32n)
    throw new SponsoredIntentError(`${field} is not a uint32: ${String(value)}`);
  return parsed;
}

export function checksummed(value: unknown, field: string): string {
  try {
    return checksumEvmAddress(String(value));
  } catch {
    throw new SponsoredIntentError(`${field} is not an address: ${String(value)}`);
  }
}

export function uintString(value: UintLike, field: string): string {
  let parsed: bigint;
  // BigInt('') is 0n: an empty field must not silently become zero.
  if (typeof value === 'string' && value.trim() === '') throw new SponsoredIntentError(`${field} is empty`);
  try {
    parsed = BigInt(value);
  } catch {
    throw new SponsoredIntentError(`${field} is not an integer: ${String(value)}`);
  }
  if (parsed < 0n || parsed > MAX_UINT256)
    throw new SponsoredIntentError(`${field} is not a uint256: ${String(value)}`);
  return parsed.toString();
}

export function chainIdOf(chainId: number): number {
  if (!Number.isSafeInteger(chainId) || chainId <= 0)
    throw new SponsoredIntentError(`chainId is not a positive integer: ${chainId}`);
  return chainId;
}
