import type { CosmosChainTraits } from '@swapgw/chains';

/** Osmosis's crosschain-swaps contract on the devnet (the manifest's `crosschainSwapsContract`). */
export const CONTRACT = 'osmo17p9rzwnnfxcjp32un9ug7yhhzgtkhvl9jfksztgw5uh69wac2pgs5yczr8';

/** The devnet's three Cosmos chains as the registry describes them (prefixes, channels), for the planner's specs. */
export const COSMOS_DEVNET_TRAITS: Record<string, CosmosChainTraits> = {
  'noble-devnet': {
    chainId: 'noble-devnet',
    bech32Prefix: 'noble',
    nativeDenom: 'uusdc',
    restUrl: 'http://127.0.0.1:1319',
    minGasPrice: '0.1uusdc',
    ibcChannels: { 'osmosis-devnet': 'channel-0', 'cosmoshub-devnet': 'channel-1' },
  },
  'osmosis-devnet': {
    chainId: 'osmosis-devnet',
    bech32Prefix: 'osmo',
    nativeDenom: 'uosmo',
    restUrl: 'http://127.0.0.1:1318',
    minGasPrice: '0.0025uosmo',
    ibcChannels: { 'cosmoshub-devnet': 'channel-0', 'noble-devnet': 'channel-1' },
    crosschainSwapsContract: CONTRACT,
  },
  'cosmoshub-devnet': {
    chainId: 'cosmoshub-devnet',
    bech32Prefix: 'cosmos',
    nativeDenom: 'uatom',
    restUrl: 'http://127.0.0.1:1317',
    minGasPrice: '0.005uatom',
    ibcChannels: { 'osmosis-devnet': 'channel-0', 'noble-devnet': 'channel-1' },
  },
};
