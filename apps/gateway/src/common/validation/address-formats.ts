import { getAddress } from 'ethers';

const EVM_HEX_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const BASE58_ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const BASE58_FORMAT = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;

/** An EVM address written all-lowercase, or mixed-case with a valid EIP-55 checksum. */
export function isEvmAddress(value: unknown): value is string {
  if (typeof value !== 'string' || !EVM_HEX_ADDRESS.test(value)) return false;
  const hex = value.slice(2);
  if (hex === hex.toLowerCase()) return true;
  try {
    return getAddress(value) === value;
  } catch {
    return false;
  }
}

/** Bytes of a base58 string (Bitcoin alphabet), or null when a character is outside it. */
export function decodeBase58(value: string): Uint8Array | null {
  let number = 0n;
  for (const char of value) {
    const digit = BASE58_ALPHABET.indexOf(char);
    if (digit < 0) return null;
    number = number * 58n + BigInt(digit);
  }
  const bytes: number[] = [];
  while (number > 0n) {
    bytes.unshift(Number(number & 0xffn));
    number >>= 8n;
  }
  // Each leading '1' encodes one leading zero byte.
  for (const char of value) {
    if (char !== '1') break;
    bytes.unshift(0);
  }
  return Uint8Array.from(bytes);
}

/** A Solana address (public key or mint): base58 of exactly 32 bytes. */
export function isSolanaAddress(value: unknown): value is string {
  if (typeof value !== 'string' || !BASE58_FORMAT.test(value)) return false;
  return decodeBase58(value)?.length === 32;
}

const CAIP_NAMESPACE = /^[-a-z0-9]{3,8}$/;
const CAIP_REFERENCE = /^[-_a-zA-Z0-9]{1,32}$/;
const ASSET_KIND = /^[-a-z0-9]{2,32}$/;
const GENERIC_ASSET_ADDRESS = /^[-.%a-zA-Z0-9]{1,128}$/;

/**
 * Token reference override `<namespace>:<chain id>:<kind>:<address>` (CAIP-19 flavoured), e.g.
 * `eip155:31337:erc20:0x5FbDB2315678afecb367f032d93F642f64180aa3` or
 * `solana:mainnet:spl:EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v`. The address is checked against
 * the namespace's format when we know it (eip155, solana).
 */
export function isTokenRefOverride(value: unknown): value is string {
  if (typeof value !== 'string' || value.length > 256) return false;
  const parts = value.split(':');
  if (parts.length !== 4) return false;
  const [namespace, reference, kind, address] = parts;
  if (!CAIP_NAMESPACE.test(namespace) || !CAIP_REFERENCE.test(reference) || !ASSET_KIND.test(kind))
    return false;
  if (namespace === 'eip155') return /^\d+$/.test(reference) && isEvmAddress(address);
  if (namespace === 'solana') return isSolanaAddress(address);
  return GENERIC_ASSET_ADDRESS.test(address);
}
