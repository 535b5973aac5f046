/**
 * The providers' names, as routes, the catalog's `supported` lists and the config name them. Below
 * both the providers (each names itself) and the support policy (which lists who trades where), so
 * neither imports the other for them.
 */
export const ProviderNames = {
  uniswapV2: 'uniswap-v2',
  uniswapV3: 'uniswap-v3',
  devnetBridge: 'devnet-bridge',
  lifi: 'lifi',
  jupiter: 'jupiter',
  zeroX: '0x',
  across: 'across',
  thorchain: 'thorchain',
  /** Osmosis's pools (poolmanager), on Osmosis or on arrival of an IBC transfer (cosmos/). */
  osmosis: 'osmosis',
  /** ICS-20 transfers between Cosmos chains, the bridge leg before a swap on Osmosis. */
  ibc: 'ibc',
  /**
   * USDC from an EVM devnet chain through the devnet bridge into a Noble forwarding account, on over
   * IBC into a swap on Osmosis (cosmos/noble-forwarding.provider.ts); its legs name devnet-bridge,
   * ibc and osmosis.
   */
  nobleForwarding: 'noble-forwarding',
  /**
   * A Cosmos chain's coin swapped to USDC on arrival on Osmosis, sent home to the wallet's Noble
   * account and burnt there through Noble's CCTP to Solana (cosmos/noble-cctp.provider.ts); its legs
   * name ibc, osmosis (the swap, then the contract's transfer home) and devnet-bridge.
   */
  nobleCctp: 'noble-cctp',
  /** The Skip Go API's routes between Cosmos chains (skip-go/). */
  skipGo: 'skip-go',
} as const;
