import { IsInt, Max, Min } from 'class-validator';
import { HEARTBEAT_INTERVAL_BOUNDS } from '@swapgw/contracts';
import { ServiceEnvironment } from '@swapgw/runtime';

/** Environment of execution-planner, validated at boot (loadConfig). Property names are the variables. */
export class ExecutionPlannerConfig extends ServiceEnvironment {
  @IsInt()
  @Min(0)
  @Max(65535)
  HEALTH_PORT: number = 3102;

  /**
   * How often each instance publishes its heartbeat on `service.heartbeats` while it is ready: the
   * gateway's GET /health reads them (read by bootstrapKafkaService).
   */
  @IsInt()
  @Min(HEARTBEAT_INTERVAL_BOUNDS.min)
  @Max(HEARTBEAT_INTERVAL_BOUNDS.max)
  HEARTBEAT_INTERVAL_MS: number = HEARTBEAT_INTERVAL_BOUNDS.default;

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

  @IsInt()
  @Min(1)
  @Max(100)
  DB_POOL_SIZE: number = 10;
}
