import { REAL_NETWORKS } from '@swapgw/chains';

/**
 * The devnet's Cosmos chains: three instances of one in-process Cosmos SDK chain (cosmos-chain.ts),
 * each with its own chain id, bech32 prefix, native denom and minimum gas price.
 */
export interface CosmosChainSpec {
  /** API identifier and the chain id wallets sign for (the same string, as on the EVM devnets' ids). */
  id: string;
  /** Which of the three chains it is: what its node runs beside the SDK's modules. */
  role: CosmosChainRole;
  name: string;
  bech32Prefix: string;
  /** Base denom of the native token (what fees are paid in). */
  denom: string;
  symbol: string;
  decimals: number;
  /**
   * The node's `minimum-gas-prices` in `denom` per gas unit: CheckTx refuses a fee below
   * ceil(gas limit × price) with code 13. The mainnets' usual validator floors.
   */
  minGasPrice: number;
  /** Default ports in the standard layout: CometBFT RPC (26657 + 10·i) and REST (1317 + i). */
  defaultRpcPort: number;
  defaultRestPort: number;
}

export const COSMOS_DEVNET_CHAINS: readonly CosmosChainSpec[] = [
  {
    id: 'cosmoshub-devnet',
    role: 'hub',
    name: 'Cosmos Hub Devnet',
    bech32Prefix: 'cosmos',
    denom: 'uatom',
    symbol: 'ATOM',
    decimals: 6,
    minGasPrice: 0.005,
    defaultRpcPort: 26657,
    defaultRestPort: 1317,
  },
  {
    id: 'osmosis-devnet',
    role: 'osmosis',
    name: 'Osmosis Devnet',
    bech32Prefix: 'osmo',
    denom: 'uosmo',
    symbol: 'OSMO',
    decimals: 6,
    minGasPrice: 0.0025,
    defaultRpcPort: 26667,
    defaultRestPort: 1318,
  },
  {
    id: 'noble-devnet',
    role: 'noble',
    name: 'Noble Devnet',
    bech32Prefix: 'noble',
    denom: 'uusdc',
    symbol: 'USDC',
    decimals: 6,
    minGasPrice: 0.1,
    defaultRpcPort: 26677,
    defaultRestPort: 1319,
  },
];

/**
 * The Hub (staking coin ATOM), Osmosis (the DEX: poolmanager pools, ibc-hooks with crosschain-swaps)
 * and Noble (USDC's issuer).
 */
export type CosmosChainRole = 'hub' | 'osmosis' | 'noble';

/**
 * One set of the three chains as a node operator would run them: the devnet's, or the mainnet
 * replica's under the real chain ids (libs/devnet/src/replica/cosmos-replica.ts). Everything that
 * differs between the two is here; the chains' code is the same.
 */
export interface CosmosNetwork {
  /** One chain per role. */
  chains: readonly CosmosChainSpec[];
  /**
   * The ICS-20 channels: per chain id, its channel id toward each counterparty chain id
   * (`channel-<n>`); a channel's counterparty channel is the other chain's channel toward this one.
   */
  channels: Readonly<Record<string, Readonly<Record<string, string>>>>;
  /** Where Osmosis's crosschain-swaps contract is (what ibc-hooks `wasm` memos name). */
  crosschainSwapsAddress: string;
}

/** The chain of `role` in `network`. */
export function cosmosChainOf(network: CosmosNetwork, role: CosmosChainRole): CosmosChainSpec {
  const spec = network.chains.find((chain) => chain.role === role);
  if (!spec) throw new Error(`the Cosmos network has no ${role} chain`);
  return spec;
}

/**
 * The devnet's channels, numbered per chain in the order its channels were opened, as on the real
 * chains (the connection the same number).
 */
export const COSMOS_DEVNET_CHANNELS: CosmosNetwork['channels'] = {
  'cosmoshub-devnet': { 'osmosis-devnet': 'channel-0', 'noble-devnet': 'channel-1' },
  'osmosis-devnet': { 'cosmoshub-devnet': 'channel-0', 'noble-devnet': 'channel-1' },
  'noble-devnet': { 'osmosis-devnet': 'channel-0', 'cosmoshub-devnet': 'channel-1' },
};

/**
 * The mainnets' channels as the shipped catalog takes them from chain-registry (cosmoshub-4 ⇄
 * osmosis-1 over channel-141 / channel-0, …): the mainnet replica opens these.
 */
export const COSMOS_MAINNET_CHANNELS: CosmosNetwork['channels'] = Object.fromEntries(
  REAL_NETWORKS.flatMap((chain) => (chain.cosmos ? [[chain.id, chain.cosmos.ibcChannels]] : [])),
);

/** Test wallets: the EVM user accounts' indices, m/44'/118'/0'/0/<index>. */
export const COSMOS_TEST_WALLET_INDICES = [1, 2, 3, 4, 5, 6, 7, 8, 9] as const;
/** What each test wallet holds at start, in base units: 1,000 whole tokens. */
export const COSMOS_TEST_WALLET_FUNDING = 1_000_000_000n;
/** Block interval: a broadcast transaction is in the next block, at most this much later. */
export const COSMOS_DEVNET_BLOCK_MS = 1000;
