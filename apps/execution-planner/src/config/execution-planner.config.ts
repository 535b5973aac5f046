import { IsInt, Max, Min } from 'class-validator';
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

  /** How often steps waiting for their price check before a later leg spends ask quote-service. */
  @IsInt()
  @Min(100)
  @Max(60_000)
  SWAP_PRICE_CHECK_POLL_MS: number = 1000;

  /**
   * How long such a step waits for quote-service's price (it is asked again at every poll); past
   * it the step is prepared with the minimum the quote planned, which the chain enforces.
   */
  @IsInt()
  @Min(1000)
  @Max(600_000)
  SWAP_PRICE_CHECK_WAIT_MS: number = 30_000;

  @IsInt()
  @Min(1)
  @Max(100)
  DB_POOL_SIZE: number = 10;
}
