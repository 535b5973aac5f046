import { secp256k1 } from '@noble/curves/secp256k1.js';
import { ripemd160 } from '@noble/hashes/legacy.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bech32 } from '@scure/base';
import { HDNodeWallet } from 'ethers';
import { DEVNET_MNEMONIC } from '../anvil';

/** A Cosmos account key: secp256k1, as every Cosmos SDK wallet (Keplr, gaiad keys) derives it. */
export interface CosmosDevnetKey {
  /** m/44'/118'/0'/0/<index>: coin type 118, the path of cosmjs's and Keplr's default account. */
  path: string;
  privateKey: Uint8Array;
  /** Compressed (33 bytes): what `/cosmos.crypto.secp256k1.PubKey` carries. */
  publicKey: Uint8Array;
  address: string;
}

/** The mnemonic's root keys, derived once: a mnemonic's seed is 2048 PBKDF2 rounds, the devnet starts often. */
const roots = new Map<string, HDNodeWallet>();

/** Test wallet `index` of the devnet mnemonic (or `mnemonic`) on a chain of bech32 `prefix`. */
export function cosmosDevnetKey(prefix: string, index: number, mnemonic = DEVNET_MNEMONIC): CosmosDevnetKey {
  const path = `m/44'/118'/0'/0/${index}`;
  let root = roots.get(mnemonic);
  if (!root) roots.set(mnemonic, (root = HDNodeWallet.fromPhrase(mnemonic, undefined, 'm')));
  const wallet = root.derivePath(path);
  const privateKey = Uint8Array.from(Buffer.from(wallet.privateKey.slice(2), 'hex'));
  const publicKey = secp256k1.getPublicKey(privateKey, true);
  return { path, privateKey, publicKey, address: cosmosAddress(prefix, publicKey) };
}

/** The SDK's secp256k1 account address: bech32(prefix, ripemd160(sha256(compressed pubkey))). */
export function cosmosAddress(prefix: string, publicKey: Uint8Array): string {
  return bech32.encode(prefix, bech32.toWords(ripemd160(sha256(publicKey))));
}

/** The 20 address bytes of a bech32 address of `prefix`; undefined when it is not one. */
export function addressBytes(prefix: string, address: string): Uint8Array | undefined {
  try {
    const decoded = bech32.decode(address as `${string}1${string}`);
    if (decoded.prefix !== prefix) return undefined;
    const bytes = bech32.fromWords(decoded.words);
    return bytes.length === 20 || bytes.length === 32 ? bytes : undefined;
  } catch {
    return undefined;
  }
}

/** address.Hash(module, key) of the Cosmos SDK: SHA-256(SHA-256(module) ‖ key). */
export function sdkAddressHash(module: string, key: string | Uint8Array): Uint8Array {
  const typeHash = sha256(new TextEncoder().encode(module));
  const keyBytes = typeof key === 'string' ? new TextEncoder().encode(key) : key;
  return sha256(new Uint8Array([...typeHash, ...keyBytes]));
}

/**
 * The service's fee granter on the devnet's Cosmos chains: test wallet 9 of the mnemonic (funded at
 * genesis like the others; the int-specs' own granters and funders are 6 to 8).
 */
export const COSMOS_FEE_GRANTER_INDEX = 9;

/**
 * COSMOS_FEE_GRANTER_KEYS for the devnet's Cosmos chains (the manifest's `cosmos` section):
 * `{"<chain id>": ["<hex private key>"]}`, the granter's key of each chain, as an operator writes it.
 */
export function devnetCosmosFeeGranterKeys(
  chains: readonly { id: string; bech32Prefix: string }[],
  mnemonic = DEVNET_MNEMONIC,
): Record<string, string[]> {
  return Object.fromEntries(
    chains.map((chain) => [
      chain.id,
      [
        Buffer.from(
          cosmosDevnetKey(chain.bech32Prefix, COSMOS_FEE_GRANTER_INDEX, mnemonic).privateKey,
        ).toString('hex'),
      ],
    ]),
  );
}

/** The devnet fee granter's address on a chain of `prefix` (for printing; the key is never printed). */
export function devnetCosmosFeeGranterAddress(prefix: string, mnemonic = DEVNET_MNEMONIC): string {
  return cosmosDevnetKey(prefix, COSMOS_FEE_GRANTER_INDEX, mnemonic).address;
}
