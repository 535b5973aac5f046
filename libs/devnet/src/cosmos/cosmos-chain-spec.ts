/**
 * The devnet's Cosmos chains: three instances of one in-process Cosmos SDK chain (cosmos-chain.ts),
 * each with its own chain id, bech32 prefix, native denom and minimum gas price.
 */
export interface CosmosChainSpec {
  /** API identifier and the chain id wallets sign for (the same string, as on the EVM devnets' ids). */
  id: string;
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

/** Test wallets: the EVM user accounts' indices, m/44'/118'/0'/0/<index>. */
export const COSMOS_TEST_WALLET_INDICES = [1, 2, 3, 4, 5, 6, 7, 8, 9] as const;
/** What each test wallet holds at start, in base units: 1,000 whole tokens. */
export const COSMOS_TEST_WALLET_FUNDING = 1_000_000_000n;
/** Block interval: a broadcast transaction is in the next block, at most this much later. */
export const COSMOS_DEVNET_BLOCK_MS = 1000;
