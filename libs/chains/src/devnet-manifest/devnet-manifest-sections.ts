import type { DevnetBitcoinChain, DevnetBitcoinView } from '../families/bitcoin/bitcoin-devnet-manifest';
import { bitcoinManifestProblems } from '../families/bitcoin/bitcoin-devnet-manifest';
import type { CosmosDevnetChainManifest } from '../families/cosmos/cosmos-devnet-manifest';
import { cosmosManifestProblems } from '../families/cosmos/cosmos-devnet-manifest';
import type { DevnetSolanaChain, DevnetSolanaView } from '../families/solana/solana-devnet-manifest';
import { solanaManifestProblems } from '../families/solana/solana-devnet-manifest';

/**
 * Each chain family's section of the devnet manifest, from its own folder
 * (`families/<family>/<family>-devnet-manifest.ts`: the section's type and its check): the one
 * table the manifest's schema and validation read. A new family with a local chain plugs in here:
 * its section in the view (absent in manifests written before it existed), in the complete manifest
 * `startDevnet` writes, and its check. The EVM chains are the manifest's `chains`, not a section.
 */
export interface DevnetFamilySectionViews {
  /** The local Solana chain (`solana-devnet`); absent in manifests written before it existed. */
  solana?: DevnetSolanaView;
  /** The local Bitcoin chain (`bitcoin-devnet`); absent in manifests written before it existed. */
  bitcoin?: DevnetBitcoinView;
  /**
   * The local Cosmos SDK chains (family `cosmos`); absent in manifests written before they existed.
   * No service serves the family yet: readers validate the section and otherwise ignore it.
   */
  cosmos?: CosmosDevnetChainManifest[];
}

/**
 * The family sections of the complete manifest (DevnetManifest), every one there; each refines its
 * view (the compiler checks it, as this extends the views).
 */
export interface DevnetFamilySections extends DevnetFamilySectionViews {
  /**
   * The local Solana chain (`solana-devnet`), beside `chains` so EVM readers are unchanged. Its test
   * wallets are Keypair.fromSeed(sha256("swapgw-devnet/solana/wallet/<index>")).
   */
  solana: DevnetSolanaChain;
  /**
   * The local Bitcoin chain (`bitcoin-devnet`, regtest) behind an Esplora API. Its wallets are BIP84
   * keys of the mnemonic: test wallets m/84'/1'/0'/0/<index>, fee wallets m/84'/1'/1'/0/<index>, the
   * bridge vault m/84'/1'/2'/0/0 (libs/devnet/src/bitcoin/bitcoin-keys.ts).
   */
  bitcoin: DevnetBitcoinChain;
  /** The local Cosmos SDK chains: cosmoshub-devnet, osmosis-devnet, noble-devnet (libs/devnet/src/cosmos). */
  cosmos: CosmosDevnetChainManifest[];
}

/** Each section's structural check, by its key in the manifest; one message per problem. */
export const DEVNET_MANIFEST_SECTIONS = {
  solana: solanaManifestProblems,
  bitcoin: bitcoinManifestProblems,
  cosmos: cosmosManifestProblems,
} satisfies Record<keyof DevnetFamilySections, (section: unknown) => string[]>;

/** Each family's section types, part of the manifest's schema. */
export * from '../families/solana/solana-devnet-manifest';
export * from '../families/bitcoin/bitcoin-devnet-manifest';
export * from '../families/cosmos/cosmos-devnet-manifest';
