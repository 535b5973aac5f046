import { Injectable } from '@nestjs/common';
import { Clock } from '@swapgw/runtime';
import { SignerSurfaceConfig } from '../../config/signer-surface.config';
import { feeAccountsOf } from '../../sponsorship/fee-account-settings';
import { bitcoinFeeWalletVariablesOf } from './bitcoin-fee-wallet-config';
import { RelayerKeySet } from '../../sponsorship/relayer-keys';
import { SponsoredTransactionsRepository } from '../../sponsorship/sponsored-transactions.repository';
import { SponsorshipBudget } from '../../sponsorship/sponsorship-budget';
import { SponsorshipBudgetLimits } from '../../sponsorship/wei-settings';

/** The Bitcoin fee wallets of the validated config: their keys per chain, the balance under which one is not used, budgets in sats. */
@Injectable()
export class BitcoinFeeWalletSettings {
  readonly keys: RelayerKeySet;
  readonly minBalanceSats: bigint;
  readonly budget: SponsorshipBudgetLimits;

  constructor(config: SignerSurfaceConfig) {
    const variables = bitcoinFeeWalletVariablesOf(config);
    const bitcoin = feeAccountsOf(
      config,
      variables.bitcoinFeeWalletKeys,
      { name: 'BITCOIN_FEE_WALLET_MIN_BALANCE_SATS', value: variables.BITCOIN_FEE_WALLET_MIN_BALANCE_SATS },
      { name: 'SPONSORSHIP_DAILY_BUDGET_SATS', value: variables.SPONSORSHIP_DAILY_BUDGET_SATS },
      'sats',
    );
    this.keys = bitcoin.keys;
    this.minBalanceSats = bitcoin.minBalance;
    this.budget = bitcoin.budget;
  }
}

/** The daily sponsorship budget of Bitcoin chains (sats): what the fee wallets may pay per key. */
@Injectable()
export class BitcoinSponsorshipBudget extends SponsorshipBudget {
  constructor(ledger: SponsoredTransactionsRepository, settings: BitcoinFeeWalletSettings, clock: Clock) {
    super(ledger, settings.budget, clock);
  }
}
