// Gas sponsorship: the service's relayer accounts send (and pay for) the transactions carrying
// users' signatures. What the rest of signer-surface uses:
export { RelayingModule } from './relaying.module';
export { RelayerGasSponsor } from './relayer-gas-sponsor';
export { Relayers } from './relayers';
export { RelayersPolicy } from './relayers';
export type { RelayedCall, RelayedSend } from './relayers';
export { RelayerPool } from './relayer-pool';
export { SolanaFeePayers } from './solana-fee-payers';
export { BitcoinFeeWallets } from './bitcoin-fee-wallets';
export { RelayedTransactionTracker } from './relayed-transaction-tracker';
export { RelayedTrackingPolicy } from './relayed-transaction-tracker';
export { SponsorshipBudget } from './sponsorship-budget';
export { SponsoredTransactions } from './sponsored-transactions';
export type { SponsoredTransactionView } from './sponsored-transactions';
export { SPONSORED_PURPOSES, SponsoredTransactionEntity } from './sponsored-transaction.entity';
export type { SponsoredPurpose, SponsoredTransactionStatus } from './sponsored-transaction.entity';
export { RelayingSettings } from './relaying-settings';
