// The Solana family of signer-surface: its payload kind (solana-transaction), its fee payers (keys,
// settings, budget) and the settlement of their co-signed transactions. What the composition root
// (families/) takes from it; nothing else imports this folder.
import { SignerChains } from '../../chains/signer-chains';
import type { SignerFamily } from '../../signing/signer-family';
import { FeeAccountLedger } from '../../sponsorship/fee-account-ledger';
import { SolanaFeePayerSettings, SolanaSponsorshipBudget } from './solana-fee-payer-settings';
import { SolanaFeePayers } from './solana-fee-payers';
import { SolanaFeePayerSponsor } from './solana-fee-payer-sponsor';
import { SolanaSettlement } from './solana-settlement';
import { SolanaTransactionKind } from './solana-transaction/solana-transaction.kind';

export { withSolanaFeePayerSettings } from './solana-fee-payer-config';
export { SolanaFeePayerSettings, SolanaSponsorshipBudget } from './solana-fee-payer-settings';
export { SolanaFeePayers } from './solana-fee-payers';
export { SolanaSettlement } from './solana-settlement';

export const solanaFamily: SignerFamily = {
  family: 'solana',
  payloadKinds: [SolanaTransactionKind],
  sponsorship: [
    SolanaFeePayerSettings,
    // The fee payers' accounts, checked against the chain registry (see evmFamily's RelayerPool).
    {
      provide: SolanaFeePayers,
      inject: [SolanaFeePayerSettings, SignerChains, FeeAccountLedger],
      useFactory: (settings: SolanaFeePayerSettings, chains: SignerChains, ledger: FeeAccountLedger) =>
        new SolanaFeePayers(settings.keys, chains, settings.minBalanceLamports, ledger),
    },
    SolanaSponsorshipBudget,
    SolanaFeePayerSponsor,
    SolanaSettlement,
  ],
  kindSponsors: [SolanaFeePayerSponsor],
  tracking: SolanaSettlement,
};
