import { Injectable } from '@nestjs/common';
import { DEFAULT_RELAYER_MIN_BALANCE_WEI, SignerSurfaceConfig } from '../config/signer-surface.config';
import { RelayerKeySet, RelayerKeysReading } from './relayer-keys';
import {
  parseBudgetOverrides,
  parseWei,
  parseWeiByChain,
  SponsorshipBudgetLimits,
  WeiByChain,
} from './wei-settings';

/** The Solana fee payers: their keys per chain, the balance under which one is not used, budgets in lamports. */
export interface SolanaFeePayerSettings {
  keys: RelayerKeySet;
  minBalanceLamports: bigint;
  budget: SponsorshipBudgetLimits;
}

/** The Bitcoin fee wallets: their keys per chain, the balance under which one is not used, budgets in sats. */
export interface BitcoinFeeWalletSettings {
  keys: RelayerKeySet;
  minBalanceSats: bigint;
  budget: SponsorshipBudgetLimits;
}

/**
 * The sponsors' accounts and budgets of the validated config, parsed: the relayers' keys, minimum
 * balance and budgets (wei), the Solana fee payers' (lamports) and the Bitcoin fee wallets' (sats).
 * Parses what SignerSurfaceConfig validated at boot (the same parsers): throws only on a config
 * that did not go through loadConfig.
 */
@Injectable()
export class RelayingSettings {
  readonly keys: RelayerKeySet;
  readonly minBalance: WeiByChain;
  readonly budget: SponsorshipBudgetLimits;
  readonly solana: SolanaFeePayerSettings;
  readonly bitcoin: BitcoinFeeWalletSettings;

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
    const solana = feeAccountsOf(
      config,
      config.solanaFeePayerKeys,
      'SOLANA_FEE_PAYER_MIN_BALANCE_LAMPORTS',
      'SPONSORSHIP_DAILY_BUDGET_LAMPORTS',
      'lamports',
    );
    const bitcoin = feeAccountsOf(
      config,
      config.bitcoinFeeWalletKeys,
      'BITCOIN_FEE_WALLET_MIN_BALANCE_SATS',
      'SPONSORSHIP_DAILY_BUDGET_SATS',
      'sats',
    );
    this.keys = keys.keys;
    this.minBalance = minBalance.value;
    this.budget = budget.value;
    this.solana = { keys: solana.keys, minBalanceLamports: solana.minBalance, budget: solana.budget };
    this.bitcoin = { keys: bitcoin.keys, minBalanceSats: bitcoin.minBalance, budget: bitcoin.budget };
  }
}

/**
 * The keys, minimum balance and daily budget of a family's fee accounts (Solana fee payers, Bitcoin
 * fee wallets), in the chain's base unit: SPONSORSHIP_BUDGET_OVERRIDES is read again in that unit,
 * keys it does not name getting `dailyVariable`.
 */
function feeAccountsOf(
  config: SignerSurfaceConfig,
  reading: RelayerKeysReading,
  minBalanceVariable: 'SOLANA_FEE_PAYER_MIN_BALANCE_LAMPORTS' | 'BITCOIN_FEE_WALLET_MIN_BALANCE_SATS',
  dailyVariable: 'SPONSORSHIP_DAILY_BUDGET_LAMPORTS' | 'SPONSORSHIP_DAILY_BUDGET_SATS',
  unit: string,
): { keys: RelayerKeySet; minBalance: bigint; budget: SponsorshipBudgetLimits } {
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
