import { SignerSurfaceConfig } from '../config/signer-surface.config';
import { RelayerKeySet, RelayerKeysReading } from './relayer-keys';
import { parseBudgetOverrides, parseWei, SponsorshipBudgetLimits } from './wei-settings';

/** A family's fee accounts as configured: their keys per chain, the balance under which one is not used, budgets. */
export interface FeeAccountSettings {
  keys: RelayerKeySet;
  minBalance: bigint;
  budget: SponsorshipBudgetLimits;
}

/**
 * The keys, minimum balance and daily budget of a family's fee accounts (Solana fee payers, Bitcoin
 * fee wallets), in the chain's base unit: SPONSORSHIP_BUDGET_OVERRIDES is read again in that unit,
 * keys it does not name getting `dailyVariable`. Parses what SignerSurfaceConfig validated at boot
 * (the same parsers): throws only on a config that did not go through loadConfig.
 */
export function feeAccountsOf(
  config: SignerSurfaceConfig,
  reading: RelayerKeysReading,
  minBalanceVariable: 'SOLANA_FEE_PAYER_MIN_BALANCE_LAMPORTS' | 'BITCOIN_FEE_WALLET_MIN_BALANCE_SATS',
  dailyVariable: 'SPONSORSHIP_DAILY_BUDGET_LAMPORTS' | 'SPONSORSHIP_DAILY_BUDGET_SATS',
  unit: string,
): FeeAccountSettings {
  if (!reading.ok) throw new Error(reading.problem);
  const minBalance = parseWei(config[minBalanceVariable]);
  const daily = parseWei(config[dailyVariable]);
  if (minBalance === undefined || daily === undefined) {
    throw new Error(`${minBalanceVariable} and ${dailyVariable} must be decimal strings of ${unit}`);
  }
  const budget = parseBudgetOverrides(
    config.SPONSORSHIP_BUDGET_OVERRIDES,
    'SPONSORSHIP_BUDGET_OVERRIDES',
    daily,
  );
  if (!budget.ok) throw new Error(budget.problem);
  return { keys: reading.keys, minBalance, budget: budget.value };
}
