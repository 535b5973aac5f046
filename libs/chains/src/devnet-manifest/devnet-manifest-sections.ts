import type { DevnetBitcoinChain, DevnetBitcoinView } from '../families/bitcoin/bitcoin-devnet-manifest';
import { bitcoinManifestSection } from '../families/bitcoin/bitcoin-devnet-manifest';
import type { CosmosDevnetChainManifest } from '../families/cosmos/cosmos-devnet-manifest';
import { cosmosManifestSection } from '../families/cosmos/cosmos-devnet-manifest';
import type { DevnetSolanaChain, DevnetSolanaView } from '../families/solana/solana-devnet-manifest';
import type { DevnetManifestSection } from './devnet-manifest-section';

import { solanaManifestSection } from '../families/solana/solana-devnet-manifest';

/**
 * Each chain family's section of the devnet manifest, from its own folder
 * (`families/<family>/<family>-devnet-manifest.ts`: the section's type and its check): the one
 * table the manifest's schema and validation and the chain registry read. A new family with a local chain plugs in here:
 * its section in the view (absent in manifests written before it existed), in the complete manifest
 * `startDevnet` writes, and its entry (its check, its chains and their tokens). The EVM chains are the manifest's `chains`, not a section.
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

/**
 * Each section's entry (devnet-manifest-section.ts), by its key in the manifest: its check, and its
 * chains, deployments and listed tokens as the chain registry reads them.
 */
export const DEVNET_MANIFEST_SECTIONS = {
  solana: solanaManifestSection,
  bitcoin: bitcoinManifestSection,
  cosmos: cosmosManifestSection,
} satisfies {
  [Key in keyof DevnetFamilySections]-?: DevnetManifestSection<NonNullable<DevnetFamilySectionViews[Key]>>;
};

/** The family sections `manifest` has, each with its entry, in the table's order. */
export function devnetManifestSectionsOf(
  manifest: DevnetFamilySectionViews,
): { key: string; section: DevnetManifestSection<unknown>; view: unknown }[] {
  return Object.entries(DEVNET_MANIFEST_SECTIONS).flatMap(([key, section]) => {
    const view = manifest[key as keyof DevnetFamilySectionViews];
    return view === undefined ? [] : [{ key, section: section as DevnetManifestSection<unknown>, view }];
  });
}

/** Each family's section types, part of the manifest's schema. */
export * from '../families/solana/solana-devnet-manifest';
export * from '../families/bitcoin/bitcoin-devnet-manifest';
export * from '../families/cosmos/cosmos-devnet-manifest';
