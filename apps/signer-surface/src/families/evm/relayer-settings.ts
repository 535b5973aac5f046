import { Injectable } from '@nestjs/common';
import { Clock } from '@swapgw/runtime';
import { DEFAULT_RELAYER_MIN_BALANCE_WEI, SignerSurfaceConfig } from '../../config/signer-surface.config';
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
    const keys = config.relayerKeys;
    if (!keys.ok) throw new Error(keys.problem);
    const minBalance = parseWeiByChain(
      config.RELAYER_MIN_BALANCE_WEI,
      'RELAYER_MIN_BALANCE_WEI',
      BigInt(DEFAULT_RELAYER_MIN_BALANCE_WEI),
    );
    if (!minBalance.ok) throw new Error(minBalance.problem);
    const dailyWei = parseWei(config.SPONSORSHIP_DAILY_BUDGET_WEI);
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
