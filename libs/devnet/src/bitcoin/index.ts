export * from './bitcoin-devnet';
export * from './bitcoin-keys';
export { BitcoinChain, MIN_RELAY_SATS_PER_VBYTE } from './bitcoin-chain';
export { BitcoinRejection } from './bitcoin-transaction-rules';
export { EsploraClient, EsploraError, type EsploraTransaction, type EsploraUtxo } from './esplora-client';
export {
  signPayment,
  p2trOf,
  p2shP2wpkhOf,
  type SignedPayment,
  type SpendableCoin,
  type WalletAddressKind,
} from './bitcoin-wallet';
export { devnetBitcoinFeeWalletKeys } from './bitcoin-fee-wallet-keys';
