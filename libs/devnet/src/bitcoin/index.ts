export * from './bitcoin-devnet';
export * from './bitcoin-keys';
export { BitcoinChain, MIN_RELAY_SATS_PER_VBYTE } from './bitcoin-chain';
export { BitcoinRejection } from './bitcoin-transaction-rules';
