import { IsInt, IsOptional, IsUrl, Max, Min } from 'class-validator';
import { HEARTBEAT_INTERVAL_BOUNDS } from '@swapgw/contracts';
import { ServiceEnvironment } from '@swapgw/runtime';

/**
 * Environment of signer-surface, validated at boot (the app refuses to start on a bad value).
 * DATABASE_URL, KAFKA_BROKERS, DEVNET_MANIFEST, LOG_LEVEL and INSTANCE_ID: ServiceEnvironment.
 */
export class SignerSurfaceConfig extends ServiceEnvironment {
  @IsInt()
  @Min(1)
  @Max(65535)
  HEALTH_PORT: number = 3103;

  /**
   * How often each instance publishes its heartbeat on `service.heartbeats` while it is ready: the
   * gateway's GET /health reads them (read by bootstrapKafkaService).
   */
  @IsInt()
  @Min(HEARTBEAT_INTERVAL_BOUNDS.min)
  @Max(HEARTBEAT_INTERVAL_BOUNDS.max)
  HEARTBEAT_INTERVAL_MS: number = HEARTBEAT_INTERVAL_BOUNDS.default;

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

  /** Esplora-compatible HTTP API for Bitcoin transaction status (e.g. https://blockstream.info/api). */
  @IsOptional()
  @IsUrl({ require_tld: false, require_protocol: true, protocols: ['http', 'https'] })
  ESPLORA_URL_BITCOIN?: string;
}

export const SIGNER_SURFACE_CONFIG = Symbol('SIGNER_SURFACE_CONFIG');
