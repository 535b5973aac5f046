import { ripemd160 } from '@noble/hashes/legacy.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bech32 } from '@scure/base';

/** A bech32 human-readable prefix as chains use them (`cosmos`, `osmo`, `noble`). */
const PREFIX = /^[a-z][a-z0-9]{0,30}$/;

/**
 * The bytes of a Cosmos SDK address of `prefix`: 20 (a secp256k1 account, ripemd160(sha256(pubkey)))
 * or, with `allowModule`, 32 (module accounts, interchain accounts, contracts); undefined when
 * `address` is not one (another prefix, a bad checksum, mixed case, another length).
 */
export function cosmosAddressBytes(
  prefix: string,
  address: string,
  options: { allowModule?: boolean } = {},
): Uint8Array | undefined {
  if (typeof address !== 'string' || address.length > 90) return undefined;
  try {
    const decoded = bech32.decode(address as `${string}1${string}`);
    if (decoded.prefix !== prefix) return undefined;
    const bytes = bech32.fromWords(decoded.words);
    if (bytes.length === 20 || (options.allowModule && bytes.length === 32)) return bytes;
    return undefined;
  } catch {
    return undefined;
  }
}

/** True when `address` is an address of `prefix` (see cosmosAddressBytes). */
export function isCosmosAddress(
  prefix: string,
  address: string,
  options: { allowModule?: boolean } = {},
): boolean {
  return cosmosAddressBytes(prefix, address, options) !== undefined;
}

/**
 * A wallet's account address on a Cosmos chain: bech32 of 20 bytes (a secp256k1 key's), in lower
 * case, of `prefix` when the chain is known (of any prefix when not). The reason is an
 * INVALID_ADDRESS message.
 */
export function validateCosmosAddress(
  address: string,
  prefix?: string,
): { ok: true } | { ok: false; reason: string } {
  const form = prefix ? `a ${prefix}1… bech32 address` : 'a bech32 address (cosmos1…, osmo1…)';
  let actualPrefix: string;
  try {
    actualPrefix = bech32.decode(address as `${string}1${string}`).prefix;
  } catch {
    return { ok: false, reason: `a Cosmos account address is ${form} of 20 bytes, in lower case` };
  }
  if (prefix && actualPrefix !== prefix)
    return { ok: false, reason: `an account of this chain is ${form}, not ${actualPrefix}1…` };
  return cosmosAddressBytes(actualPrefix, address)
    ? { ok: true }
    : { ok: false, reason: `a Cosmos account address is ${form} of 20 bytes, in lower case` };
}

/** True for a usable bech32 prefix (lowercase letters then letters or digits). */
export function isBech32Prefix(prefix: string): boolean {
  return PREFIX.test(prefix);
}

/** The SDK's secp256k1 account address: bech32(prefix, ripemd160(sha256(compressed pubkey))). */
export function cosmosAddressOfPubkey(prefix: string, compressedPubkey: Uint8Array): string {
  if (compressedPubkey.length !== 33 || (compressedPubkey[0] !== 2 && compressedPubkey[0] !== 3)) {
    throw new Error('A Cosmos secp256k1 public key is 33 bytes, compressed (02 or 03 first)');
  }
  return bech32.encode(prefix, bech32.toWords(ripemd160(sha256(compressedPubkey))));
}

/** A Cosmos address's key under `prefix` (chains derive accounts alike: coin type 118). */
export function cosmosAddressUnderPrefix(address: string, prefix: string): string {
  return bech32.encode(prefix, bech32.decode(address as `${string}1${string}`).words);
}
