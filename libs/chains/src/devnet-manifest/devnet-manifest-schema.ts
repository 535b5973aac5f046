/**
 * The devnet manifest's schema, one for its writer (libs/devnet) and its readers (services, tests):
 * the view every manifest satisfies, and the complete manifest `startDevnet` writes as its refinement.
 * devnet-manifest-validation.ts checks both. Each family's section (its type and its check) is its
 * own, registered in devnet-manifest-sections.ts.
 */
import type { CosmosDevnetChainManifest } from '../families/cosmos/cosmos-devnet-manifest';
import type { DevnetFamilySections, DevnetFamilySectionViews } from './devnet-manifest-sections';

/**
 * What services may rely on in any devnet manifest: the one `startDevnet` writes (DevnetManifest),
 * the mainnet replica's (MainnetReplicaManifest: no devnet chains) and ones written before a section
 * existed. Declared in libs/chains so that services do not load the devnet tooling (anvil, solc).
 */
export interface DevnetManifestView extends DevnetFamilySectionViews {
  generatedAtMs: number;
  /** Devnet EVM chains; empty in a manifest that brings no devnet chains (the mainnet replica's). */
  chains: DevnetChainView[];
  /** The devnet bridge between the chains; absent exactly when there are no devnet chains. */
  bridge?: { provider: string; feeBps: number; estimatedDurationSeconds: number; relayer: string };
  accounts: { index: number; address: string }[];
}

export interface DevnetChainView {
  id: string;
  name: string;
  chainId: number;
  rpcUrl: string;
  nativeSymbol: string;
  tokens: Record<
    string,
    {
      address: string;
      decimals: number;
      name: string;
      permit?: boolean;
      permitVersion?: string;
      /** Known untaxed and unrestricted: quote-service skips its token-tax probe. */
      verified?: boolean;
    }
  >;
  uniswapV2: { factory: string; router: string; initCodeHash: string; pairs: Record<string, string> };
  bridge: { address: string; token: string };
  /**
   * Permit2 and the permit-aware SwapGatewayRouter (spender of both kinds of permit, in front of
   * `uniswapV2.router` and `bridge`); absent in manifests written before they were deployed.
   */
  permits?: { permit2: string; permitRouter: string };
}

/**
 * The devnet manifest: everything a service or a test needs to talk to the local chains. Written
 * by `startDevnet`, read by services through libs/chains (`DEVNET_MANIFEST`). It extends the view (its
 * family sections through DevnetFamilySections, which extends theirs), so the compiler checks that
 * what the devnet writes is what readers expect.
 */
export interface DevnetManifest
  extends Omit<DevnetManifestView, keyof DevnetFamilySectionViews>, DevnetFamilySections {
  generatedAtMs: number;
  /** The standard anvil test mnemonic; accounts derive at m/44'/60'/0'/0/<index>. */
  mnemonic: string;
  chains: DevnetChain[];
  bridge: DevnetBridgeInfo;
  /** Accounts 1-9: funded with ETH, WETH, USDC and DAI on every chain, for trying swaps. */
  accounts: DevnetAccount[];
}

/**
 * The manifest `startMainnetReplica` writes: no devnet chains (`chains` is empty, no `bridge`, no
 * top-level `solana`), so services reading it as a devnet manifest see none; they reach the
 * replica's chains as they reach mainnet, through RPC_URL_ETHEREUM / _BASE / _ARBITRUM / _SOLANA.
 */
export interface MainnetReplicaManifest {
  generatedAtMs: number;
  chains: [];
  /** Accounts 1-9 of the anvil test mnemonic: ETH, USDC and WETH on every EVM replica. */
  accounts: DevnetAccount[];
  mainnetReplica: MainnetReplicaChains;
}

export interface MainnetReplicaChains {
  evm: MainnetReplicaEvmChain[];
  solana: MainnetReplicaSolanaChain;
  /**
   * Across's API on the replica (`GET <acrossApiUrl>/suggested-fees`, as https://app.across.to/api),
   * quoting what the replica's filler fills: quote-service's ACROSS_API_URL.
   */
  acrossApiUrl: string;
  /**
   * The Cosmos mainnets (cosmoshub-4, osmosis-1, noble-1) under their real ids and channels, each
   * chain's CometBFT RPC under `rpc` and REST API under `rest`; absent in replicas written before them.
   */
  cosmos?: CosmosDevnetChainManifest[];
  /**
   * The replica's `bitcoin` chain (mainnet addresses) behind an Esplora API, and THORChain between
   * it and the EVM chains; absent in replica manifests written before it existed.
   */
  bitcoin?: MainnetReplicaBitcoinChain;
}

/**
 * The mainnet replica's Bitcoin chain: the devnet's in-process chain showing mainnet addresses
 * (`bc1q…`, `bc1p…`, `3…`), with THORChain's local THORNode and vaults (libs/devnet/src/replica/bitcoin-replica.ts).
 */
export interface MainnetReplicaBitcoinChain {
  /** API id of the real network it replicates: `bitcoin`. */
  id: 'bitcoin';
  network: 'mainnet';
  /** Its Esplora API (Blockstream's esplora API.md): the apps' ESPLORA_URL_BITCOIN. */
  esploraUrl: string;
  blockMs: number;
  /** Test wallets 1-9, BIP84 native SegWit `m/84'/0'/0'/0/<index>` of the test mnemonic (`bc1q…`), 5 BTC each. */
  accounts: DevnetAccount[];
  /** The same indices' BIP86 Taproot wallets `m/86'/0'/0'/0/<index>` (`bc1p…`), 5 BTC each. */
  taprootAccounts: DevnetAccount[];
  /** The same indices' BIP49 nested SegWit wallets `m/49'/0'/0'/0/<index>` (`3…`), 5 BTC each. */
  nestedSegwitAccounts: DevnetAccount[];
  /** signer-surface's miner-fee wallets `m/84'/0'/1'/0/<index>` (its BITCOIN_FEE_WALLET_KEYS for `bitcoin`). */
  feeWallets: DevnetAccount[];
  /** THORChain on the replica: its THORNode API (the apps' THORNODE_URL), its vaults and router. */
  thorchain: {
    thornodeUrl: string;
    /** THORChain's BTC inbound address (`m/84'/0'/2'/0/0`). */
    bitcoinVault: string;
    /** The router on every EVM replica chain, as inbound_addresses lists it. */
    router: string;
    /** THORChain's vault on every EVM replica chain (test account 16). */
    evmVault: string;
  };
}

/** An anvil chain with a real network's chain id and its contracts at their canonical addresses. */
export interface MainnetReplicaEvmChain {
  /** API id of the real network it replicates (`ethereum`, `base`, `arbitrum`). */
  id: string;
  chainId: number;
  rpcUrl: string;
}

export interface MainnetReplicaSolanaChain {
  id: 'solana';
  rpcUrl: string;
  /** Test wallets 1-9, Keypair.fromSeed(sha256("swapgw-devnet/solana/wallet/<index>")), as on the devnet. */
  accounts: DevnetAccount[];
}

export type DevnetChainId = 'devnet-a' | 'devnet-b';
export type DevnetTokenSymbol = 'USDC' | 'DAI' | 'WETH' | 'TAX';
export type DevnetPairName = 'WETH/USDC' | 'WETH/DAI' | 'USDC/DAI' | 'TAX/USDC';

export interface DevnetChain extends DevnetChainView {
  /** API chain identifier, e.g. `devnet-a`. */
  id: string;
  name: string;
  /** EVM chain id, e.g. 31337. */
  chainId: number;
  rpcUrl: string;
  nativeSymbol: string;
  tokens: Record<string, DevnetToken>;
  uniswapV2: DevnetUniswapV2;
  bridge: DevnetChainBridge;
  permits: DevnetChainPermits;
}

/**
 * Contracts that take a permit instead of an approval: the swap or bridge deposit carries the
 * user's signature, so the first leg is one transaction.
 */
export interface DevnetChainPermits {
  /** Permit2 (SignatureTransfer; signature-compatible with Uniswap's). Owners approve it once per token. */
  permit2: string;
  /**
   * SwapGatewayRouter: pulls the input with an EIP-2612 permit or a Permit2 transfer and performs
   * the leg (`uniswapV2.router` swap or `bridge` deposit). The spender of both kinds of permit.
   */
  permitRouter: string;
}

export interface DevnetToken {
  address: string;
  decimals: number;
  name: string;
  /** Whether the token implements EIP-2612 `permit`. */
  permit: boolean;
  /** EIP-712 domain version of the permit (present when `permit` is true). */
  permitVersion?: string;
  /**
   * Known to move without a tax or restriction (USDC, DAI, WETH): quote-service skips its tax
   * check. Absent (TAX): every quote's route is checked on chain (quote-service's token-tax probe).
   */
  verified?: boolean;
}

export interface DevnetUniswapV2 {
  factory: string;
  router: string;
  /** keccak256 of the pair creation code, as hard-coded in the router's library. */
  initCodeHash: string;
  /** Pair contract addresses keyed `A/B` (the order is the manifest's, not the pair's token0/1). */
  pairs: Record<string, string>;
}

export interface DevnetChainBridge {
  address: string;
  /** Symbol of the bridged token (USDC). */
  token: string;
}

export interface DevnetBridgeInfo {
  provider: string;
  /** Fee kept by the bridge on deposit, in basis points of the deposited amount. */
  feeBps: number;
  /** Upper bound, measured, from the deposit receipt to the release on the destination. */
  estimatedDurationSeconds: number;
  /** The only address allowed to call `release`. */
  relayer: string;
}

export interface DevnetAccount {
  index: number;
  address: string;
}
