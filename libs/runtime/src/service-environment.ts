import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsNotEmpty, IsOptional, IsString, Matches } from 'class-validator';
import { hostname } from 'node:os';
import { DatabaseEnvironment } from './database-environment';

const HTTP_URL = /^https?:\/\/[^\s]+$/;

export const LOG_LEVELS = ['verbose', 'debug', 'log', 'warn', 'error', 'fatal'] as const;
export type LogLevelName = (typeof LOG_LEVELS)[number];

/**
 * The variables every app of the suite reads: where PostgreSQL (DatabaseEnvironment), Kafka, the
 * devnet manifest and the real networks' RPC nodes are (ChainRegistry.fromConfig), how much to log, and this process's instance id. Each app's config
 * class extends it.
 */
export class ServiceEnvironment extends DatabaseEnvironment {
  @IsString()
  @Matches(/^[^,\s]+:\d+(,[^,\s]+:\d+)*$/, { message: 'KAFKA_BROKERS must be host:port[,host:port...]' })
  KAFKA_BROKERS: string = '127.0.0.1:9092';

  @IsString()
  @IsNotEmpty()
  DEVNET_MANIFEST: string = '.run/devnet/manifest.json';

  /** The real networks' RPC nodes (unset: that network is not served); apps without chains ignore them. */
  @IsOptional()
  @Matches(HTTP_URL)
  RPC_URL_ETHEREUM?: string;

  @IsOptional()
  @Matches(HTTP_URL)
  RPC_URL_BASE?: string;

  @IsOptional()
  @Matches(HTTP_URL)
  RPC_URL_ARBITRUM?: string;

  @IsOptional()
  @Matches(HTTP_URL)
  RPC_URL_SOLANA?: string;

  /**
   * Bitcoin's Esplora API (e.g. https://blockstream.info/api): its status look-ups and, for the apps
   * that swap, its signing surface (UTXOs, fee estimates, broadcast) of the `bitcoin` chain.
   */
  @IsOptional()
  @Matches(HTTP_URL)
  ESPLORA_URL_BITCOIN?: string;

  /** The Cosmos mainnets' CometBFT RPC (also their status API) and SDK REST API. */
  @IsOptional()
  @Matches(HTTP_URL)
  RPC_URL_COSMOSHUB?: string;

  @IsOptional()
  @Matches(HTTP_URL)
  REST_URL_COSMOSHUB?: string;

  @IsOptional()
  @Matches(HTTP_URL)
  RPC_URL_OSMOSIS?: string;

  @IsOptional()
  @Matches(HTTP_URL)
  REST_URL_OSMOSIS?: string;

  @IsOptional()
  @Matches(HTTP_URL)
  RPC_URL_NOBLE?: string;

  @IsOptional()
  @Matches(HTTP_URL)
  REST_URL_NOBLE?: string;

  @IsIn(LOG_LEVELS)
  LOG_LEVEL: LogLevelName = 'log';

  @IsString()
  @Matches(/^[A-Za-z0-9._-]{1,100}$/, { message: 'INSTANCE_ID must be 1-100 characters of A-Za-z0-9._-' })
  INSTANCE_ID: string = `${hostname()}-${process.pid}`.replace(/[^A-Za-z0-9._-]/g, '-').slice(0, 100);

  /**
   * Run the app's pending migrations at start (under the schema's advisory lock). false: migration
   * is a step of its own (`cli/migrate.js up`, the Kubernetes migrate Job) and the app only checks
   * at start that its schema has every migration it needs, refusing to start otherwise.
   */
  @Transform(toBooleanFlag, { toClassOnly: true })
  @IsBoolean({ message: 'MIGRATE_ON_START must be true or false' })
  MIGRATE_ON_START: boolean = true;
}

/**
 * For boolean variables (`@Transform(toBooleanFlag, { toClassOnly: true })` with `@IsBoolean`):
 * `true`/`1` and `false`/`0`; anything else becomes null, which @IsBoolean refuses with the
 * variable's name. Reads the raw variable: implicit conversion has already made any string `true`.
 */
export function toBooleanFlag({ obj, key }: { obj: Record<string, unknown>; key: string }): boolean | null {
  const value = obj[key];
  if (value === true || value === 'true' || value === '1') return true;
  if (value === false || value === 'false' || value === '0') return false;
  return null;
}
