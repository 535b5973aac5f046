import { CHAIN_FAMILIES } from '@swapgw/contracts';
import type { ChainDescriptor, ChainFamily } from './chain-descriptor';
import type { ChainRegistry } from './chain-registry';
import type { TokenAddressForm } from './families/family-traits';
import { familyTraitsOf, findFamilyTraits } from './families/family-traits-table';

/**
 * Token references: the `<namespace>:<chain id>:<kind>:<address>` overrides of a quote request
 * (CAIP-19 flavoured, e.g. `eip155:1:erc20:0xA0b8...`, `solana:mainnet:spl:EPjF...`) and the token
 * addresses of token lists. What each family accepts is here, so that the gateway's check, the
 * quote-service's resolution and the catalog agree; each family's namespace and token spelling are
 * its traits' (`caipNamespace`, `tokens`, in `families/<family>/`).
 */

/** The family whose chains a CAIP-2 namespace names, undefined for a namespace of no family we know. */
export function familyOfCaipNamespace(namespace: string): ChainFamily | undefined {
  return CHAIN_FAMILIES.find((family) => familyTraitsOf(family).caipNamespace === namespace);
}

/** The chain a token reference's `<namespace>:<chain id>` names, undefined when none is listed. */
export function chainOfTokenRef(
  registry: ChainRegistry,
  namespace: string,
  reference: string,
): ChainDescriptor | undefined {
  const caip2 = `${namespace}:${reference}`;
  // Short spellings a family accepts besides its chains' own (`solana:mainnet` for Solana mainnet-beta).
  const family = familyOfCaipNamespace(namespace);
  const alias = family === undefined ? undefined : familyTraitsOf(family).caip2Aliases?.[caip2];
  return registry.findByCaip2(caip2) ?? (alias === undefined ? undefined : registry.find(alias));
}

/** Kinds that name a chain's native coin, whatever the family (`slip44` is CAIP-19's). */
const NATIVE_KINDS: readonly string[] = ['native', 'slip44'];

/** How a family spells its tokens (its traits' `tokens`; families without tokens, Bitcoin, have none). */
function tokenFormOf(family: ChainFamily): TokenAddressForm | undefined {
  return findFamilyTraits(family)?.tokens;
}

/**
 * Whether a token reference's chain reference and address have the form of the namespace's
 * family (strictly: an EVM checksum, a Solana key of 32 bytes); undefined when the namespace is of
 * no family with tokens, whose references only a generic check can judge.
 */
export function tokenRefFitsNamespace(
  namespace: string,
  reference: string,
  address: string,
): boolean | undefined {
  const family = familyOfCaipNamespace(namespace);
  const form = family === undefined ? undefined : tokenFormOf(family);
  if (family === undefined || form === undefined) return undefined;
  return form.chainReference.test(reference) && form.isTokenAddress(address);
}

/**
 * The catalog's asset key of a token reference on a chain of `family`: `native` for the native
 * coin (kinds `native`, `slip44`), the token's address key for one of the family's token kinds
 * with an address of its form; undefined for anything else (another family's kind, a bad address).
 */
export function assetKeyOfTokenRef(family: ChainFamily, kind: string, address: string): string | undefined {
  if (NATIVE_KINDS.includes(kind)) return 'native';
  const form = tokenFormOf(family);
  return form?.kinds.includes(kind) ? form.assetKeyOf(address) : undefined;
}

/** A token list's address on a chain of `family` as the catalog stores it, undefined when malformed. */
export function catalogTokenAddress(
  family: ChainFamily,
  address: string,
): { address: string | null; mint: string | null } | undefined {
  return tokenFormOf(family)?.catalogFieldsOf(address);
}

/** Whether a token the catalog does not list can be read from this chain (EVM with an RPC). */
export function readsTokenMetadataOnChain(chain: Pick<ChainDescriptor, 'family' | 'rpcUrl'>): boolean {
  return tokenFormOf(chain.family)?.metadataOnChain === true && Boolean(chain.rpcUrl);
}
