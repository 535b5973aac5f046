import { Injectable } from '@nestjs/common';
import { Clock } from '@swapgw/runtime';
import { SignerSurfaceConfig } from '../../config/signer-surface.config';
import { feeAccountsOf } from '../../sponsorship/fee-account-settings';
import type { RelayerKeySet } from '../../sponsorship/relayer-keys';
import { SponsoredTransactionsRepository } from '../../sponsorship/sponsored-transactions.repository';
import { SponsorshipBudget } from '../../sponsorship/sponsorship-budget';
import type { SponsorshipBudgetLimits } from '../../sponsorship/wei-settings';
import { cosmosFeeGranterVariablesOf } from './cosmos-fee-granter-config';

/**
 * The Cosmos fee granters of the validated config: their keys per chain, how many step fees a grant
 * allows, the balance under which one is not used and the daily budgets, in base units of each
 * chain's fee denom.
 */
@Injectable()
export class CosmosFeeGranterSettings {
  readonly keys: RelayerKeySet;
  readonly grantSteps: bigint;
  readonly minBalance: bigint;
  readonly budget: SponsorshipBudgetLimits;

  constructor(config: SignerSurfaceConfig) {
    const variables = cosmosFeeGranterVariablesOf(config);
    const cosmos = feeAccountsOf(
      config,
      variables.cosmosFeeGranterKeys,
      { name: 'COSMOS_FEE_GRANTER_MIN_BALANCE', value: variables.COSMOS_FEE_GRANTER_MIN_BALANCE },
      { name: 'SPONSORSHIP_DAILY_BUDGET_COSMOS', value: variables.SPONSORSHIP_DAILY_BUDGET_COSMOS },
      'base units of the fee denom',
    );
    this.keys = cosmos.keys;
    this.grantSteps = BigInt(variables.COSMOS_FEE_GRANT_STEPS);
    this.minBalance = cosmos.minBalance;
    this.budget = cosmos.budget;
  }
}

/** The daily sponsorship budget of Cosmos chains (base units of each chain's fee denom): what the granters may pay per key. */
@Injectable()
export class CosmosSponsorshipBudget extends SponsorshipBudget {
  constructor(ledger: SponsoredTransactionsRepository, settings: CosmosFeeGranterSettings, clock: Clock) {
    super(ledger, settings.budget, clock);
  }
}
