import {
  tokenRefFitsNamespace,
  validateBitcoinAddress,
  validateCosmosAddress,
  validateEvmAddress,
  validateSolanaAddress,
} from '@swapgw/chains';

/**
 * Request-shape checks of addresses for the DTO decorators. The rules of each family are
 * libs/chains' (address-validation, token-refs); here only the typing of an unknown value.
 */

/** An EVM address written all-lowercase, or mixed-case with a valid EIP-55 checksum. */
export function isEvmAddress(value: unknown): value is string {
  return typeof value === 'string' && validateEvmAddress(value).ok;
}

/** A Solana address (public key or mint): base58 of exactly 32 bytes. */
export function isSolanaAddress(value: unknown): value is string {
  return typeof value === 'string' && validateSolanaAddress(value).ok;
}

/**
 * A Bitcoin address of any network (lower-case P2WPKH or P2TR, `bc1…`, `tb1…`, `bcrt1…`); whether
 * its network is the chain's is checked once the chain is known (INVALID_ADDRESS).
 */
export function isBitcoinAddress(value: unknown): value is string {
  return typeof value === 'string' && validateBitcoinAddress(value).ok;
}

/**
 * A Cosmos SDK account address of any chain (`cosmos1…`, `osmo1…`, `noble1…`: lower-case bech32 of
 * 20 bytes); whether its prefix is the chain's is checked once the chain is known (INVALID_ADDRESS).
 */
export function isCosmosAddress(value: unknown): value is string {
  return typeof value === 'string' && validateCosmosAddress(value).ok;
}

const CAIP_NAMESPACE = /^[-a-z0-9]{3,8}$/;
const CAIP_REFERENCE = /^[-_a-zA-Z0-9]{1,32}$/;
const ASSET_KIND = /^[-a-z0-9]{2,32}$/;
const GENERIC_ASSET_ADDRESS = /^[-.%a-zA-Z0-9]{1,128}$/;

/**
 * Token reference override `<namespace>:<chain id>:<kind>:<address>` (CAIP-19 flavoured), e.g.
 * `eip155:31337:erc20:0x5FbDB2315678afecb367f032d93F642f64180aa3` or
 * `solana:mainnet:spl:EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v`. The chain id and address are
 * checked against the namespace's family when it has tokens (eip155, solana), generically otherwise.
 */
export function isTokenRefOverride(value: unknown): value is string {
  if (typeof value !== 'string' || value.length > 256) return false;
  const parts = value.split(':');
  if (parts.length !== 4) return false;
  const [namespace, reference, kind, address] = parts;
  if (!CAIP_NAMESPACE.test(namespace) || !CAIP_REFERENCE.test(reference) || !ASSET_KIND.test(kind))
    return false;
  return tokenRefFitsNamespace(namespace, reference, address) ?? GENERIC_ASSET_ADDRESS.test(address);
}
