import { IsInt, IsOptional, Matches, Max, Min } from 'class-validator';
import { KafkaServiceEnvironment } from '@swapgw/messaging';

/** Environment of execution-planner, validated at boot (loadConfig). Property names are the variables. */
export class ExecutionPlannerConfig extends KafkaServiceEnvironment {
  override HEALTH_PORT = 3102;

  /**
   * How long the swap calls a build encodes stay executable (Uniswap `deadline`), from build time.
   * Covers signing every step, including a bridge transfer, with room for a slow user.
   */
  @IsInt()
  @Min(60)
  @Max(86_400)
  SWAP_DEADLINE_SECONDS: number = 3600;

  /** How often swaps abandoned past their deadline are expired. */
  @IsInt()
  @Min(1000)
  @Max(600_000)
  SWAP_EXPIRY_SWEEP_MS: number = 15_000;

  /**
   * How often steps waiting for their price check before a later leg spends ask quote-service, while
   * there are some (SwapPriceChecker): the database is read at this pace only then.
   */
  @IsInt()
  @Min(100)
  @Max(60_000)
  SWAP_PRICE_CHECK_POLL_MS: number = 1000;

  /**
   * With no step waiting for its price check, how often the database is looked at anyway: a step
   * that enters `repricing` on this instance wakes its checker at once; one put there by another
   * instance (which checks it itself) is found within this, should that instance stop.
   */
  @IsInt()
  @Min(1000)
  @Max(600_000)
  SWAP_PRICE_CHECK_IDLE_POLL_MS: number = 30_000;

  /**
   * How long such a step waits for quote-service's price (it is asked again at every poll); past
   * it the step is prepared with the minimum the quote planned, which the chain enforces.
   */
  @IsInt()
  @Min(1000)
  @Max(600_000)
  SWAP_PRICE_CHECK_WAIT_MS: number = 30_000;

  /**
   * THORNode REST API base URL (/thorchain/tx/status/{hash} is appended), as quote-service's: a
   * swap's THORChain deposit is done when THORChain's status says its outbound went out (or failed
   * when it was refunded). Unset = such a deposit is done once it confirms, as before.
   */
  @IsOptional()
  @Matches(/^https?:\/\/\S+$/, { message: 'THORNODE_URL must be an http(s) URL' })
  THORNODE_URL?: string;

  /** How often THORNode is asked about the THORChain deposits waiting for their outbound. */
  @IsInt()
  @Min(100)
  @Max(60_000)
  THORCHAIN_STATUS_POLL_MS: number = 1000;

  /**
   * How often the Cosmos chains' CometBFT RPCs are asked where the IBC packets of the transfers
   * waiting for their acknowledgement are (recv_packet, acknowledge_packet, timeout_packet).
   */
  @IsInt()
  @Min(100)
  @Max(60_000)
  IBC_PACKET_POLL_MS: number = 1000;

  @IsInt()
  @Min(1)
  @Max(100)
  DB_POOL_SIZE: number = 10;
}
