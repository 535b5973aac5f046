// ABI encoding of the few shapes the read paths send many times a second, by hand: ethers'
// Interface computes a function's selector (a Keccak-256) on every encodeFunctionData and
// checksums every address argument (another Keccak-256 each), which the flood's profiles showed
// among signer-surface's top frames. The words are the ABI's; the specs check each encoding
// against ethers' for the same call.

import type { Interface } from 'ethers';

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const HEX = /^0x(?:[0-9a-fA-F]{2})*$/;

/** The selector of `iface`'s function `name`, for the modules that compute it once at load. */
export function selectorOf(iface: Interface, name: string): string {
  const fragment = iface.getFunction(name);
  if (!fragment) throw new Error(`no function ${name} in the interface`);
  return fragment.selector;
}

/** Whether `value` is 0x and 40 hexadecimal digits (any letter case: the ABI word is the same). */
export function isAddressWord(value: string): boolean {
  return ADDRESS.test(value);
}

/** Whether `value` is 0x-prefixed hex of whole bytes. */
export function isHexBytes(value: string): boolean {
  return HEX.test(value);
}

/** One 32-byte word (64 hex digits, no 0x) holding `address`, which isAddressWord accepted. */
export function addressWord(address: string): string {
  return '000000000000000000000000' + address.slice(2).toLowerCase();
}

/** One 32-byte word holding the unsigned integer `value` (0 ≤ value < 2^256). */
export function uintWord(value: number | bigint): string {
  return value.toString(16).padStart(64, '0');
}

/** `data` (0x hex of whole bytes) right-padded with zeros to a multiple of 32 bytes, without 0x. */
function paddedBytes(data: string): string {
  const hex = data.slice(2);
  const rest = hex.length % 64;
  return rest === 0 ? hex : hex + '0'.repeat(64 - rest);
}

/** A call `{target, allowFailure, callData}` of Multicall3's aggregate3. */
export interface Aggregate3Call {
  target: string;
  allowFailure: boolean;
  callData: string;
}

/**
 * The ABI encoding of `(address target, bool allowFailure, bytes callData)[]`, as aggregate3's
 * single argument (without the selector), or null when a target or callData is not in the form
 * this encodes (the caller then lets ethers encode, and refuse, it).
 */
export function encodeAggregate3Calls(calls: readonly Aggregate3Call[]): string | null {
  if (!calls.every((call) => isAddressWord(call.target) && isHexBytes(call.callData))) return null;
  const tuples = calls.map(
    (call) =>
      addressWord(call.target) +
      uintWord(call.allowFailure ? 1 : 0) +
      uintWord(96) + // the bytes' offset from the tuple's start: after its three head words
      uintWord((call.callData.length - 2) / 2) +
      paddedBytes(call.callData),
  );
  const offsets: string[] = [];
  let offset = 32 * calls.length;
  for (const tuple of tuples) {
    offsets.push(uintWord(offset));
    offset += tuple.length / 2;
  }
  return uintWord(32) + uintWord(calls.length) + offsets.join('') + tuples.join('');
}
