export * from './bitcoin-devnet';
export * from './bitcoin-keys';
export { BitcoinChain, MIN_RELAY_SATS_PER_VBYTE } from './bitcoin-chain';
export { BitcoinRejection } from './bitcoin-transaction-rules';
export { EsploraClient, EsploraError, type EsploraUtxo } from './esplora-client';
export { signPayment, p2trOf, type SpendableCoin } from './bitcoin-wallet';
export { devnetBitcoinFeeWalletKeys } from './bitcoin-fee-wallet-keys';
