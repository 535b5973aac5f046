import { CHAIN_FAMILIES } from '@swapgw/contracts';
import {
  familyTraitsOf,
  isWalletAddressOfAnyFamily,
  tokenRefFitsNamespace,
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
 * A wallet address of any family (EVM, Solana, Bitcoin of any network, Cosmos of any prefix): each
 * family's own check (its traits in libs/chains); whether it is of the chain's family, network or
 * prefix is checked once the chain is known (INVALID_ADDRESS).
 */
export function isWalletAddress(value: unknown): value is string {
  return typeof value === 'string' && isWalletAddressOfAnyFamily(value);
}

/**
 * How a message lists the families' wallet addresses: each family's description
 * (`addressDescription`), or its name (`label`), joined as a list ("a, b, c or d").
 */
export function walletAddressForms(part: 'addressDescription' | 'label'): string {
  const parts = CHAIN_FAMILIES.map((family) => familyTraitsOf(family)[part]);
  return parts.length < 2 ? parts.join('') : `${parts.slice(0, -1).join(', ')} or ${parts[parts.length - 1]}`;
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
