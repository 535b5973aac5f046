import { IsIn, IsInt, IsNotEmpty, IsString, Matches, Max, Min } from 'class-validator';
import { hostname } from 'node:os';
import { DEFAULT_DATABASE_URL } from '@swapgw/persistence';

const LOG_LEVELS = ['verbose', 'debug', 'log', 'warn', 'error', 'fatal'] as const;

/** Everything limit-order-service reads from the environment, validated at boot. */
export class LimitOrderServiceConfig {
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
  HEALTH_PORT: number = 3104;

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
