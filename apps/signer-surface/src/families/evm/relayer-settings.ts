import { Injectable } from '@nestjs/common';
import { Clock } from '@swapgw/runtime';
import { SignerSurfaceConfig } from '../../config/signer-surface.config';
import { DEFAULT_RELAYER_MIN_BALANCE_WEI, relayerVariablesOf } from './relayer-config';
import { RelayerKeySet } from '../../sponsorship/relayer-keys';
import { SponsoredTransactionsRepository } from '../../sponsorship/sponsored-transactions.repository';
import { SponsorshipBudget } from '../../sponsorship/sponsorship-budget';
import {
  parseBudgetOverrides,
  parseWei,
  parseWeiByChain,
  SponsorshipBudgetLimits,
  WeiByChain,
} from '../../sponsorship/wei-settings';

/**
 * The relayers of the validated config, parsed: their keys per chain, the balance under which one
 * is not used and the daily budgets (wei). Parses what SignerSurfaceConfig validated at boot (the
 * same parsers): throws only on a config that did not go through loadConfig.
 */
@Injectable()
export class RelayerSettings {
  readonly keys: RelayerKeySet;
  readonly minBalance: WeiByChain;
  readonly budget: SponsorshipBudgetLimits;

  constructor(config: SignerSurfaceConfig) {
    const variables = relayerVariablesOf(config);
    const keys = variables.relayerKeys;
    if (!keys.ok) throw new Error(keys.problem);
    const minBalance = parseWeiByChain(
      variables.RELAYER_MIN_BALANCE_WEI,
      'RELAYER_MIN_BALANCE_WEI',
      BigInt(DEFAULT_RELAYER_MIN_BALANCE_WEI),
    );
    if (!minBalance.ok) throw new Error(minBalance.problem);
    const dailyWei = parseWei(variables.SPONSORSHIP_DAILY_BUDGET_WEI);
    if (dailyWei === undefined)
      throw new Error('SPONSORSHIP_DAILY_BUDGET_WEI must be a decimal string of wei');
    const budget = parseBudgetOverrides(
      config.SPONSORSHIP_BUDGET_OVERRIDES,
      'SPONSORSHIP_BUDGET_OVERRIDES',
      dailyWei,
    );
    if (!budget.ok) throw new Error(budget.problem);
    this.keys = keys.keys;
    this.minBalance = minBalance.value;
    this.budget = budget.value;
  }
}

/** The daily sponsorship budget of EVM chains (wei): what the relayers may spend per key. */
@Injectable()
export class EvmSponsorshipBudget extends SponsorshipBudget {
  constructor(ledger: SponsoredTransactionsRepository, settings: RelayerSettings, clock: Clock) {
    super(ledger, settings.budget, clock);
  }
}
