import { SignerSurfaceConfig } from '../config/signer-surface.config';
import { RelayerKeySet, RelayerKeysReading } from './relayer-keys';
import { parseBudgetOverrides, parseWei, SponsorshipBudgetLimits } from './wei-settings';

/** A family's fee accounts as configured: their keys per chain, the balance under which one is not used, budgets. */
export interface FeeAccountSettings {
  keys: RelayerKeySet;
  minBalance: bigint;
  budget: SponsorshipBudgetLimits;
}

/** A decimal amount variable of a family's section: its name (for the messages) and its value. */
export interface AmountVariable {
  name: string;
  value: string;
}

/**
 * The keys, minimum balance and daily budget of a family's fee accounts (Solana fee payers, Bitcoin
 * fee wallets), in the chain's base unit: SPONSORSHIP_BUDGET_OVERRIDES is read again in that unit,
 * keys it does not name getting `daily`. Parses what the environment validated at boot (the same
 * parsers): throws only on a config that did not go through loadConfig.
 */
export function feeAccountsOf(
  config: SignerSurfaceConfig,
  reading: RelayerKeysReading,
  minBalanceVariable: AmountVariable,
  dailyVariable: AmountVariable,
  unit: string,
): FeeAccountSettings {
  if (!reading.ok) throw new Error(reading.problem);
  const minBalance = parseWei(minBalanceVariable.value);
  const daily = parseWei(dailyVariable.value);
  if (minBalance === undefined || daily === undefined) {
    throw new Error(
      `${minBalanceVariable.name} and ${dailyVariable.name} must be decimal strings of ${unit}`,
    );
  }
  const budget = parseBudgetOverrides(
    config.SPONSORSHIP_BUDGET_OVERRIDES,
    'SPONSORSHIP_BUDGET_OVERRIDES',
    daily,
  );
  if (!budget.ok) throw new Error(budget.problem);
  return { keys: reading.keys, minBalance, budget: budget.value };
}
