// Gas sponsorship: the service's relayer accounts send (and pay for) the transactions carrying
// users' signatures. What the rest of signer-surface uses:
export { RelayingModule } from '../families/relaying.module';
export { RelayerGasSponsor } from '../families/relayer-gas-sponsor';
export { Relayers } from '../families/evm/relayers';
export { RelayersPolicy } from '../families/evm/relayers';
export type { RelayedCall, RelayedSend } from '../families/evm/relayers';
export { RelayerPool } from '../families/evm/relayer-pool';
export { SolanaFeePayers } from '../families/solana/solana-fee-payers';
export { BitcoinFeeWallets } from '../families/bitcoin/bitcoin-fee-wallets';
export { RelayedTransactionTracker } from '../families/relayed-transaction-tracker';
export { RelayedTrackingPolicy } from '../families/relayed-transaction-tracker';
export { SponsorshipBudget } from './sponsorship-budget';
export { SponsoredTransactions } from './sponsored-transactions';
export type { SponsoredTransactionView } from './sponsored-transactions';
export { SPONSORED_PURPOSES, SponsoredTransactionEntity } from './sponsored-transaction.entity';
export type { SponsoredPurpose, SponsoredTransactionStatus } from './sponsored-transaction.entity';
export { RelayingSettings } from './relaying-settings';
