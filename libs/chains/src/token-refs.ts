import { checksumEvmAddress } from './families/evm/evm-address';
import { isAddress } from 'ethers';
import { validateAddressForFamily } from './address-validation';
import type { ChainDescriptor, ChainFamily } from './chain-descriptor';
import type { ChainRegistry } from './chain-registry';

/**
 * Token references: the `<namespace>:<chain id>:<kind>:<address>` overrides of a quote request
 * (CAIP-19 flavoured, e.g. `eip155:1:erc20:0xA0b8...`, `solana:mainnet:spl:EPjF...`) and the token
 * addresses of token lists. What each family accepts is here, so that the gateway's check, the
 * quote-service's resolution and the catalog agree, and a new family is added in this file only.
 */

/** The CAIP-2 namespace of each family's chains. */
export const CAIP_NAMESPACES: Record<ChainFamily, string> = {
  evm: 'eip155',
  solana: 'solana',
  bitcoin: 'bip122',
  cosmos: 'cosmos',
};

/** The family whose chains a CAIP-2 namespace names, undefined for a namespace of no family we know. */
export function familyOfCaipNamespace(namespace: string): ChainFamily | undefined {
  return (Object.keys(CAIP_NAMESPACES) as ChainFamily[]).find(
    (family) => CAIP_NAMESPACES[family] === namespace,
  );
}

/** Short CAIP-2 spellings accepted besides the chains' own (`solana:mainnet` for Solana mainnet-beta). */
const CAIP2_ALIASES: Record<string, string> = { 'solana:mainnet': 'solana' };

/** The chain a token reference's `<namespace>:<chain id>` names, undefined when none is listed. */
export function chainOfTokenRef(
  registry: ChainRegistry,
  namespace: string,
  reference: string,
): ChainDescriptor | undefined {
  const caip2 = `${namespace}:${reference}`;
  const alias = CAIP2_ALIASES[caip2];
  return registry.findByCaip2(caip2) ?? (alias === undefined ? undefined : registry.find(alias));
}

/** Kinds that name a chain's native coin, whatever the family (`slip44` is CAIP-19's). */
const NATIVE_KINDS: readonly string[] = ['native', 'slip44'];

/** How one family spells its tokens (families without tokens, Bitcoin, have none). */
interface TokenAddressForm {
  /** The CAIP-2 chain reference of its namespace, checked on requests (EVM: the decimal chain id). */
  chainReference: RegExp;
  /** Kinds that name one of its tokens by address. */
  kinds: readonly string[];
  /**
   * The catalog's asset key of a token address (EVM: lower case; Solana: the mint as written), or
   * undefined when the address does not have the family's form. A loose check of form: a request
   * passed the gateway's strict one (validateAddressForFamily) already.
   */
  assetKeyOf(address: string): string | undefined;
  /** The strict check of a request's token address (EVM checksum, Solana key, Cosmos denom form). */
  isTokenAddress(address: string): boolean;
  /** The address as the catalog stores it (EVM `address`, checksummed; Solana `mint`), or undefined. */
  catalogFieldsOf(address: string): { address: string | null; mint: string | null } | undefined;
  /**
   * A token outside the catalog can be read from the chain itself (an ERC-20's symbol() and
   * decimals()); Solana's mints carry no symbol.
   */
  metadataOnChain: boolean;
}

const BASE58 = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;
/** The Cosmos SDK's denom form (x/bank `reDnmString`): `uatom`, `ibc/27394F…`, `factory/osmo1…/x`. */
const COSMOS_DENOM = /^[a-zA-Z][a-zA-Z0-9/:._-]{2,127}$/;

const TOKEN_ADDRESS_FORMS: Record<ChainFamily, TokenAddressForm | undefined> = {
  evm: {
    chainReference: /^\d+$/,
    kinds: ['erc20'],
    isTokenAddress: (address) => validateAddressForFamily('evm', address).ok,
    assetKeyOf: (address) => (isAddress(address) ? address.toLowerCase() : undefined),
    catalogFieldsOf: (address) => {
      try {
        return { address: checksumEvmAddress(address.toLowerCase()), mint: null };
      } catch {
        return undefined;
      }
    },
    metadataOnChain: true,
  },
  solana: {
    chainReference: /^/,
    kinds: ['spl', 'token'],
    isTokenAddress: (address) => validateAddressForFamily('solana', address).ok,
    assetKeyOf: (address) => (BASE58.test(address) ? address : undefined),
    catalogFieldsOf: (address) => (BASE58.test(address) ? { address: null, mint: address } : undefined),
    metadataOnChain: false,
  },
  bitcoin: undefined,
  // A Cosmos token is its denom (`cosmos:osmosis-1:ibc:ibc/27394F…`), kept in the catalog's
  // chain-native identity column (`mint`) as written: denoms are case-sensitive.
  cosmos: {
    chainReference: /^[-a-zA-Z0-9]{1,32}$/,
    kinds: ['denom', 'ibc'],
    isTokenAddress: (denom) => COSMOS_DENOM.test(denom),
    assetKeyOf: (denom) => (COSMOS_DENOM.test(denom) ? denom : undefined),
    catalogFieldsOf: (denom) => (COSMOS_DENOM.test(denom) ? { address: null, mint: denom } : undefined),
    metadataOnChain: false,
  },
};

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
  const form = family === undefined ? undefined : TOKEN_ADDRESS_FORMS[family];
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
  const form = TOKEN_ADDRESS_FORMS[family];
  return form?.kinds.includes(kind) ? form.assetKeyOf(address) : undefined;
}

/** A token list's address on a chain of `family` as the catalog stores it, undefined when malformed. */
export function catalogTokenAddress(
  family: ChainFamily,
  address: string,
): { address: string | null; mint: string | null } | undefined {
  return TOKEN_ADDRESS_FORMS[family]?.catalogFieldsOf(address);
}

/** Whether a token the catalog does not list can be read from this chain (EVM with an RPC). */
export function readsTokenMetadataOnChain(chain: Pick<ChainDescriptor, 'family' | 'rpcUrl'>): boolean {
  return TOKEN_ADDRESS_FORMS[chain.family]?.metadataOnChain === true && Boolean(chain.rpcUrl);
}
