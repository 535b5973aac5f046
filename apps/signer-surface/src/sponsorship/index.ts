// Gas sponsorship, the part shared by the families: the GasSponsor port the signing flow calls, the
// sponsorship ledger (sponsored transactions, sponsor accounts), the daily budgets, the relaying
// database and metrics, the key sets and amount settings the families' sponsors parse theirs with.
// The sponsors themselves (relayers, fee payers, fee wallets) live in families/<family>/.
export { GAS_SPONSOR } from './gas-sponsor';
export type { GasSponsor } from './gas-sponsor';
export { SponsorshipBudget } from './sponsorship-budget';
export { SponsoredTransactions } from './sponsored-transactions';
export type { SponsoredTransactionView } from './sponsored-transactions';
export { SPONSORED_PURPOSES, SponsoredTransactionEntity } from './sponsored-transaction.entity';
export type { SponsoredPurpose, SponsoredTransactionStatus } from './sponsored-transaction.entity';
