import type { ChainFamily } from '@swapgw/contracts';
import type { BitcoinNetworkName } from './families/bitcoin/bitcoin-networks';
import { cosmosRealNetworks } from './families/cosmos/cosmos-real-networks';

/** The chain families: one union, @swapgw/contracts' (its CHAIN_FAMILIES lists them). */
export type { ChainFamily };
export type ChainNetwork = 'mainnet' | 'testnet';

/** One chain the suite knows: a devnet chain from the manifest or a real network from configuration. */
export interface ChainDescriptor {
  /** API identifier (`devnet-a`, `ethereum`, `solana`): the chain value of quotes and `chainRef`. */
  id: string;
  name: string;
  family: ChainFamily;
  /** Devnet chains count as testnet. */
  network: ChainNetwork;
  /** EVM chain id; undefined for Solana. */
  evmChainId?: number;
  /** CAIP-2 reference (`eip155:1`, `solana:5eykt4Us...`), used by token reference overrides. */
  caip2: string;
  nativeSymbol: string;
  nativeDecimals: number;
  /** RPC endpoint; a chain without one is listed but has no signing surface. */
  rpcUrl?: string;
  /** Name of the environment variable that configures the RPC (real networks). */
  rpcEnv?: string;
  /** True for chains that come from the devnet manifest. */
  devnet: boolean;
  /**
   * Transaction-status API of chains looked up over HTTP rather than JSON-RPC (Bitcoin: an
   * Esplora-compatible API). Not a signing surface: `hasSigningSurface` stays false.
   */
  statusApiUrl?: string;
  /** Name of the environment variable that configures `statusApiUrl`. */
  statusApiEnv?: string;
  /**
   * Bitcoin chains: the network whose address format and keys they use (`network` says only
   * mainnet or testnet; the devnet is `regtest`, `bcrt1…`).
   */
  bitcoinNetwork?: BitcoinNetworkName;
  /** Cosmos chains: what their wallets, denoms and REST API are (families/cosmos). */
  cosmos?: CosmosChainTraits;
}

/** What a Cosmos SDK chain's descriptor adds: its addresses' prefix, native denom and REST API. */
export interface CosmosChainTraits {
  /** The chain id transactions are signed for (`cosmoshub-devnet`, `osmosis-1`). */
  chainId: string;
  /** bech32 human-readable prefix of its accounts (`cosmos`, `osmo`, `noble`). */
  bech32Prefix: string;
  /** Base denom of the native coin (`uatom`). */
  nativeDenom: string;
  /**
   * The SDK's REST API (gRPC-gateway), no trailing slash; the CometBFT RPC is `rpcUrl`. Empty on a
   * real network whose `restEnv` is unset.
   */
  restUrl: string;
  /** Real networks: the variable that configures `restUrl` (`REST_URL_COSMOSHUB`). */
  restEnv?: string;
  /** The node's minimum gas price as the SDK writes it (`0.005uatom`). */
  minGasPrice: string;
  /** ICS-20 channels of this chain: counterparty chain id → this chain's channel toward it. */
  ibcChannels: Record<string, string>;
  /** Osmosis: the crosschain-swaps contract an ibc-hooks `wasm` memo names. */
  crosschainSwapsContract?: string;
}

/**
 * Real networks listed even without an RPC URL; `RPC_URL_<ENV>` turns on their signing surface. The
 * Cosmos mainnets come last, from the pinned chain-registry package (families/cosmos/cosmos-real-networks).
 */
export const REAL_NETWORKS: readonly Omit<ChainDescriptor, 'rpcUrl'>[] = [
  {
    id: 'ethereum',
    name: 'Ethereum',
    family: 'evm',
    network: 'mainnet',
    evmChainId: 1,
    caip2: 'eip155:1',
    nativeSymbol: 'ETH',
    nativeDecimals: 18,
    rpcEnv: 'RPC_URL_ETHEREUM',
    devnet: false,
  },
  {
    id: 'base',
    name: 'Base',
    family: 'evm',
    network: 'mainnet',
    evmChainId: 8453,
    caip2: 'eip155:8453',
    nativeSymbol: 'ETH',
    nativeDecimals: 18,
    rpcEnv: 'RPC_URL_BASE',
    devnet: false,
  },
  {
    id: 'arbitrum',
    name: 'Arbitrum One',
    family: 'evm',
    network: 'mainnet',
    evmChainId: 42161,
    caip2: 'eip155:42161',
    nativeSymbol: 'ETH',
    nativeDecimals: 18,
    rpcEnv: 'RPC_URL_ARBITRUM',
    devnet: false,
  },
  {
    id: 'solana',
    name: 'Solana',
    family: 'solana',
    network: 'mainnet',
    // CAIP-2 of Solana mainnet-beta: the first 32 characters of its genesis hash.
    caip2: 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp',
    nativeSymbol: 'SOL',
    nativeDecimals: 9,
    rpcEnv: 'RPC_URL_SOLANA',
    devnet: false,
  },
  {
    // Its Esplora API (ESPLORA_URL_BITCOIN) is both its status look-up and its signing surface (UTXOs,
    // fee estimates, broadcast), as the devnet's Bitcoin chain's: native BTC swaps through THORChain.
    id: 'bitcoin',
    name: 'Bitcoin',
    family: 'bitcoin',
    network: 'mainnet',
    // CAIP-2 of Bitcoin mainnet (bip122 namespace, the first 32 hex digits of the genesis hash).
    caip2: 'bip122:000000000019d6689c085ae165831e93',
    nativeSymbol: 'BTC',
    nativeDecimals: 8,
    rpcEnv: 'ESPLORA_URL_BITCOIN',
    statusApiEnv: 'ESPLORA_URL_BITCOIN',
    bitcoinNetwork: 'mainnet',
    devnet: false,
  },
  ...cosmosRealNetworks(),
];
