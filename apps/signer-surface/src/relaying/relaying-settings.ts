import type { SignerSurfaceConfig } from '../config/signer-surface.config';
import type { BitcoinFeeBumpPolicy } from './bitcoin-fee-bump';
import { RelayerKeySet, RelayerKeysReading } from './relayer-keys';
import { RelayedTrackingPolicy } from './relayed-transaction-tracker';
import { RelayersPolicy } from './relayers';
import {
  parseBudgetOverrides,
  parseWei,
  parseWeiByChain,
  SponsorshipBudgetLimits,
  WeiByChain,
} from './wei-settings';
import { DEFAULT_RELAYER_MIN_BALANCE_WEI } from '../config/signer-surface.config';

/** RELAYER_MAX_FEE_PER_GAS_WEI unset: no absolute cap (the largest uint256). */
const NO_FEE_CAP = 2n ** 256n - 1n;

/** The relaying part of the validated config, parsed. */
export interface RelayingSettings {
  keys: RelayerKeySet;
  minBalance: WeiByChain;
  budget: SponsorshipBudgetLimits;
  relayers: RelayersPolicy;
  tracking: RelayedTrackingPolicy;
  solana: SolanaFeePayerSettings;
  bitcoin: BitcoinFeeWalletSettings;
}

export const RELAYING_SETTINGS = Symbol('RelayingSettings');

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
  feeBump: BitcoinFeeBumpPolicy;
}

/**
 * Parses what SignerSurfaceConfig validated at boot (the same parsers): throws only on a config
 * that did not go through loadConfig.
 */
export function relayingSettingsOf(config: SignerSurfaceConfig): RelayingSettings {
  const keys = config.relayerKeys;
  if (!keys.ok) throw new Error(keys.problem);
  const minBalance = parseWeiByChain(
    config.RELAYER_MIN_BALANCE_WEI,
    'RELAYER_MIN_BALANCE_WEI',
    BigInt(DEFAULT_RELAYER_MIN_BALANCE_WEI),
  );
  if (!minBalance.ok) throw new Error(minBalance.problem);
  const maxFeePerGas =
    config.RELAYER_MAX_FEE_PER_GAS_WEI === undefined
      ? { ok: true as const, value: new WeiByChain(NO_FEE_CAP) }
      : parseWeiByChain(config.RELAYER_MAX_FEE_PER_GAS_WEI, 'RELAYER_MAX_FEE_PER_GAS_WEI', NO_FEE_CAP);
  if (!maxFeePerGas.ok) throw new Error(maxFeePerGas.problem);
  const dailyWei = parseWei(config.SPONSORSHIP_DAILY_BUDGET_WEI);
  if (dailyWei === undefined) throw new Error('SPONSORSHIP_DAILY_BUDGET_WEI must be a decimal string of wei');
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
  return {
    keys: keys.keys,
    minBalance: minBalance.value,
    budget: budget.value,
    relayers: {
      gasLimitPercent: config.GAS_LIMIT_PERCENT,
      gasLimitExtra: config.RELAYER_GAS_EXTRA,
      feeCeilingPercent: config.RELAYER_FEE_CEILING_PERCENT,
      maxFeePerGas: maxFeePerGas.value,
    },
    tracking: {
      pollMs: config.CONFIRMATION_POLL_MS,
      stuckAfterMs: config.RELAYER_STUCK_AFTER_MS,
      feeBumpPercent: config.RELAYER_FEE_BUMP_PERCENT,
      batchSize: 20,
      // Long enough for a batch of RPC round trips at RPC_TIMEOUT_MS each to finish first.
      leaseMs: Math.max(30_000, config.RPC_TIMEOUT_MS * 4),
      balanceRefreshMs: Math.max(10_000, config.CONFIRMATION_POLL_MS),
      reconcileMs: config.RELAYER_RECONCILE_MS,
    },
    solana: { keys: solana.keys, minBalanceLamports: solana.minBalance, budget: solana.budget },
    bitcoin: {
      keys: bitcoin.keys,
      minBalanceSats: bitcoin.minBalance,
      budget: bitcoin.budget,
      feeBump: {
        stuckAfterMs: config.BITCOIN_STUCK_AFTER_MS,
        maxFeeRate: config.BITCOIN_MAX_FEE_RATE_SATS_PER_VBYTE,
        marginPercent: config.BITCOIN_FEE_BUMP_MARGIN_PERCENT,
      },
    },
  };
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
