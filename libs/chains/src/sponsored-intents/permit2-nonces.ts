import { hexlify, randomBytes } from 'ethers';
import { uintString } from './intent-values';
import type { UintLike } from './intent-types';

/**
 * A fresh Permit2 unordered nonce: 248 random bits, so nonces of independent signing sessions never
 * collide (and almost never share a bitmap word) without reading the owner's nonceBitmap first.
 */
export function randomPermit2Nonce(): bigint {
  return BigInt(hexlify(randomBytes(31)));
}

/** Where Permit2 records `nonce`: used once `nonceBitmap(owner, wordPos) & mask` is non-zero. */
export function permit2NonceBit(nonce: UintLike): { wordPos: bigint; mask: bigint } {
  const value = BigInt(uintString(nonce, 'nonce'));
  return { wordPos: value >> 8n, mask: 1n << (value & 0xffn) };
}
