import { IsInt, Max, Min } from 'class-validator';
import { KafkaServiceEnvironment } from '@swapgw/messaging';

/** Everything limit-order-service reads from the environment, validated at boot. */
export class LimitOrderServiceConfig extends KafkaServiceEnvironment {
  override HEALTH_PORT = 3104;

  @IsInt()
  @Min(1)
  @Max(100)
  DB_POOL_SIZE: number = 10;

  /** How often the sweeper looks for open orders past their expiry. */
  @IsInt()
  @Min(50)
  @Max(60_000)
  SWEEP_INTERVAL_MS: number = 1000;

  /** How often the watcher re-quotes one open order (0 disables the watcher). */
  @IsInt()
  @Min(0)
  @Max(3_600_000)
  WATCH_INTERVAL_MS: number = 5_000;

  /** Open orders the watcher quotes per round and instance. */
  @IsInt()
  @Min(1)
  @Max(1000)
  WATCH_BATCH_SIZE: number = 20;

  /**
   * Checks of one open order in a row that quote-service (or the planner) refuses with a 400 code
   * (a token delisted, a chain removed) after which the order moves to `failed`. Transient
   * failures (timeouts, outages) do not count. 5 × WATCH_INTERVAL_MS rides over a catalog refresh.
   */
  @IsInt()
  @Min(1)
  @Max(1000)
  WATCH_MAX_FAILED_CHECKS: number = 5;

  /** Bound of one request to quote-service or execution-planner. */
  @IsInt()
  @Min(100)
  @Max(120_000)
  SERVICE_REQUEST_TIMEOUT_MS: number = 10_000;

  /** Quotes one IOC search may spend (the first, for the whole amount, included). */
  @IsInt()
  @Min(1)
  @Max(32)
  IOC_MAX_QUOTES: number = 10;

  get kafkaBrokers(): string[] {
    return this.KAFKA_BROKERS.split(',').map((b) => b.trim());
  }
}
