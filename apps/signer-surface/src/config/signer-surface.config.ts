import { IsInt, IsOptional, Max, Min, Validate } from 'class-validator';
import { KafkaServiceEnvironment } from '@swapgw/messaging';
import { IsBudgetOverrides } from '../sponsorship/relaying-config-checks';

/**
 * Environment of signer-surface, validated at boot (the app refuses to start on a bad value): the
 * variables every family shares. DATABASE_URL, KAFKA_BROKERS, DEVNET_MANIFEST, LOG_LEVEL,
 * INSTANCE_ID, HEALTH_PORT and HEARTBEAT_INTERVAL_MS: KafkaServiceEnvironment (libs/messaging). Each
 * chain family adds its own section (its sponsors' keys, minimum balances, budget and knobs), a
 * mixin over this class in its folder (e.g. families/evm/relayer-config.ts); the composition root
 * composes them (SignerSurfaceEnvironment, families/families.ts), and that is the class loaded at
 * boot, so a family's bad value stops the service there as a shared one does.
 */
export class SignerSurfaceConfig extends KafkaServiceEnvironment {
  override HEALTH_PORT = 3103;

  /**
   * How long an issued payload may be signed and submitted. Two minutes: long enough for a person
   * to read and sign in a wallet, short enough that nonce and fees are still right when it lands.
   */
  @IsInt()
  @Min(5_000)
  @Max(3_600_000)
  SIGNING_REQUEST_TTL_MS: number = 120_000;

  /** gasLimit = eth_estimateGas * this / 100. */
  @IsInt()
  @Min(100)
  @Max(300)
  GAS_LIMIT_PERCENT: number = 120;

  /** maxFeePerGas = the node's suggestion * this / 100, so the payload survives base fee rises. */
  @IsInt()
  @Min(100)
  @Max(500)
  FEE_SAFETY_PERCENT: number = 125;

  /** Blocks on top of the receipt's block (its own included) before a step counts as confirmed. */
  @IsInt()
  @Min(1)
  @Max(100)
  CONFIRMATIONS_REQUIRED: number = 1;

  /** Interval of the confirmation tracker over submitted transactions. */
  @IsInt()
  @Min(50)
  @Max(60_000)
  CONFIRMATION_POLL_MS: number = 1_000;

  /** Interval at which waiting requests (waitFor balance) are re-checked. */
  @IsInt()
  @Min(50)
  @Max(300_000)
  WAITING_POLL_MS: number = 2_000;

  /** readyAtMs estimate given while a step waits for a balance (e.g. a bridge transfer). */
  @IsInt()
  @Min(0)
  WAITING_READY_ESTIMATE_MS: number = 30_000;

  /** A waiting step fails (WAIT_TIMEOUT) after this long without its balance. */
  @IsInt()
  @Min(1_000)
  WAITING_TIMEOUT_MS: number = 3_600_000;

  /** Bound on every chain RPC call, so an unresponsive node yields an error, not a hung handler. */
  @IsInt()
  @Min(100)
  @Max(120_000)
  RPC_TIMEOUT_MS: number = 10_000;

  /** A pending sponsored transaction not mined after this long is replaced with higher fees. */
  @IsInt()
  @Min(100)
  @Max(3_600_000)
  RELAYER_STUCK_AFTER_MS: number = 15_000;

  /** Fee increase of a replacement, on both EIP-1559 fees: nodes refuse a replacement under +10%. */
  @IsInt()
  @Min(10)
  @Max(500)
  RELAYER_FEE_BUMP_PERCENT: number = 25;

  /** How often each relayer's nonce ledger is reconciled with its chain (also once at start). */
  @IsInt()
  @Min(1_000)
  @Max(3_600_000)
  RELAYER_RECONCILE_MS: number = 15_000;

  /**
   * Per-API-key budgets: `{"<API key id>": "<wei>"}` or `{"<API key id>": {"<chain id>": "<wei>", "*": "<wei>"}}`;
   * keys not named get SPONSORSHIP_DAILY_BUDGET_WEI (SPONSORSHIP_DAILY_BUDGET_LAMPORTS on Solana,
   * SPONSORSHIP_DAILY_BUDGET_SATS on Bitcoin, SPONSORSHIP_DAILY_BUDGET_COSMOS on Cosmos). Amounts are
   * in each chain's base unit: wei, lamports on a Solana chain, sats on a Bitcoin chain, the fee
   * denom's base units (uatom...) on a Cosmos chain.
   */
  @IsOptional()
  @Validate(IsBudgetOverrides)
  SPONSORSHIP_BUDGET_OVERRIDES?: string;
}

/** A class of signer-surface's environment: this one, or it with the families' sections (their mixins take it). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type SignerSurfaceConfigClass = new (...args: any[]) => SignerSurfaceConfig;

export const SIGNER_SURFACE_CONFIG = Symbol('SIGNER_SURFACE_CONFIG');
