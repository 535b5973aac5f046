import { IsIn, IsInt, IsNotEmpty, IsString, Matches, Max, Min } from 'class-validator';
import { hostname } from 'node:os';
import { DEFAULT_DATABASE_URL } from '@swapgw/persistence';

const LOG_LEVELS = ['verbose', 'debug', 'log', 'warn', 'error', 'fatal'] as const;

/** Environment of execution-planner, validated at boot (loadConfig). Property names are the variables. */
export class ExecutionPlannerConfig {
  @IsString()
  @Matches(/^postgres(ql)?:\/\//, { message: 'DATABASE_URL must be a postgres:// URL' })
  DATABASE_URL: string = DEFAULT_DATABASE_URL;

  @IsString()
  @Matches(/^[^,\s]+:\d+(,[^,\s]+:\d+)*$/, { message: 'KAFKA_BROKERS must be host:port[,host:port...]' })
  KAFKA_BROKERS: string = '127.0.0.1:9092';

  @IsString()
  @IsNotEmpty()
  DEVNET_MANIFEST: string = '.run/devnet/manifest.json';

  @IsIn(LOG_LEVELS)
  LOG_LEVEL: (typeof LOG_LEVELS)[number] = 'log';

  @IsString()
  @Matches(/^[A-Za-z0-9._-]{1,100}$/, { message: 'INSTANCE_ID must be 1-100 characters of A-Za-z0-9._-' })
  INSTANCE_ID: string = `${hostname()}-${process.pid}`.replace(/[^A-Za-z0-9._-]/g, '-').slice(0, 100);

  @IsInt()
  @Min(0)
  @Max(65535)
  HEALTH_PORT: number = 3102;

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

  /** Bound of the route-plan look-up at quote-service (its timeout answers the build 503). */
  @IsInt()
  @Min(100)
  @Max(60_000)
  ROUTE_REQUEST_TIMEOUT_MS: number = 8000;

  @IsInt()
  @Min(1)
  @Max(100)
  DB_POOL_SIZE: number = 10;
}
