import { Injectable } from '@nestjs/common';
import { Clock } from '@swapgw/runtime';
import { SignerSurfaceConfig } from '../../config/signer-surface.config';
import { feeAccountsOf } from '../../sponsorship/fee-account-settings';
import { solanaFeePayerVariablesOf } from './solana-fee-payer-config';
import { RelayerKeySet } from '../../sponsorship/relayer-keys';
import { SponsoredTransactionsRepository } from '../../sponsorship/sponsored-transactions.repository';
import { SponsorshipBudget } from '../../sponsorship/sponsorship-budget';
import { SponsorshipBudgetLimits } from '../../sponsorship/wei-settings';

/** The Solana fee payers of the validated config: their keys per chain, the balance under which one is not used, budgets in lamports. */
@Injectable()
export class SolanaFeePayerSettings {
  readonly keys: RelayerKeySet;
  readonly minBalanceLamports: bigint;
  readonly budget: SponsorshipBudgetLimits;

  constructor(config: SignerSurfaceConfig) {
    const variables = solanaFeePayerVariablesOf(config);
    const solana = feeAccountsOf(
      config,
      variables.solanaFeePayerKeys,
      {
        name: 'SOLANA_FEE_PAYER_MIN_BALANCE_LAMPORTS',
        value: variables.SOLANA_FEE_PAYER_MIN_BALANCE_LAMPORTS,
      },
      { name: 'SPONSORSHIP_DAILY_BUDGET_LAMPORTS', value: variables.SPONSORSHIP_DAILY_BUDGET_LAMPORTS },
      'lamports',
    );
    this.keys = solana.keys;
    this.minBalanceLamports = solana.minBalance;
    this.budget = solana.budget;
  }
}

/** The daily sponsorship budget of Solana chains (lamports): what the fee payers may pay per key. */
@Injectable()
export class SolanaSponsorshipBudget extends SponsorshipBudget {
  constructor(ledger: SponsoredTransactionsRepository, settings: SolanaFeePayerSettings, clock: Clock) {
    super(ledger, settings.budget, clock);
  }
}
