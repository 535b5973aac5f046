export * from './manifest';
export * from './manifest-writer';
export * from './devnet-error';
export * from './start-devnet';
export { DEVNET_MNEMONIC, resolveAnvilBinary, startAnvil } from './anvil';
export { devnetWallet } from './accounts';
export {
  DEVNET_THORCHAIN_ROUTER,
  devnetRelayerKeys,
  SPONSOR_RELAYER_INDICES,
  TAXED_TOKEN,
  THORCHAIN_VAULT_INDEX,
} from './devnet-parameters';
export { pairAddress } from './deploy/deploy-chain';
export { sellThroughUniswapV2, type UniswapV2Sale } from './pool-trades';
export { GasHeadroomSigner, withGasHeadroom } from './gas-headroom';
export * from './contracts/abis';
export * from './contracts/permit-typed-data';
export type { BridgeEndpoint, BridgeTransfer, ReleaseOutcome } from './bridge/bridge-endpoint';
export { BridgeRelayer } from './bridge/bridge-relayer';
export type { RelayerLogger } from './bridge/bridge-relayer';
export { EvmBridgeEndpoint } from './bridge/evm-bridge-endpoint';
export { SolanaBridgeEndpoint, readVaultTransaction } from './bridge/solana-bridge-endpoint';
export {
  LocalThornode,
  THORCHAIN_BTC_DUST_THRESHOLD,
  type LocalThornodeDestination,
} from './bridge/local-thornode';
export { satsForRouterDeposit, ThorchainRouterEndpoint } from './bridge/thorchain-router-endpoint';
export type { VaultTransactionView } from './bridge/solana-bridge-endpoint';
// Each family's folder (its local chain, keys and sponsor), through the devnet's family table.
export * from './devnet-families';
export * from './replica';
