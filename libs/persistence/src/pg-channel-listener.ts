import { Logger } from '@nestjs/common';
import { Client, ClientConfig } from 'pg';
import type { DataSource } from 'typeorm';
import type { PostgresDataSourceOptions } from 'typeorm/driver/postgres/PostgresDataSourceOptions';

export interface PgChannelListenerOptions {
  /** Told each NOTIFY on the channel, with its payload ('' when none was sent). */
  onNotification(payload: string): void;
  /**
   * Told when LISTEN (re)starts after it was lost or unavailable: notifications sent meanwhile were
   * missed, so whoever waits for them should look again.
   */
  onResumed?(): void;
  /** Pause before trying again after the connection was lost or refused. */
  retryDelayMs?: number;
  /** Tells this connection apart in pg_stat_activity (`<applicationName>-<purpose>`). */
  purpose: string;
}

/**
 * LISTEN on one channel over a dedicated connection (a pooled one would be handed to other
 * queries and lose the subscription). Reconnects by itself after the connection is lost or refused,
 * and says so through `onResumed`, because PostgreSQL does not keep notifications for a listener
 * that was away. NOTIFY is delivered at commit, so a notification always describes committed rows.
 */
export class PgChannelListener {
  private readonly logger = new Logger(PgChannelListener.name);
  private client: Client | null = null;
  private running = false;
  private lostOnce = false;
  private retryTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly dataSource: DataSource,
    readonly channel: string,
    private readonly options: PgChannelListenerOptions,
  ) {}

  /** Resolves after the first attempt, listening or not: a failed attempt is retried in the background. */
  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    await this.listen();
  }

  async stop(): Promise<void> {
    this.running = false;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }

  /** True while LISTEN is in place. */
  isListening(): boolean {
    return this.client !== null;
  }

  private async listen(): Promise<void> {
    if (!this.running) return;
    const client = new Client(
      pgClientConfigOf(this.dataSource.options as PostgresDataSourceOptions, this.options.purpose),
    );
    client.on('notification', (message) => {
      if (message.channel === this.channel) this.options.onNotification(message.payload ?? '');
    });
    client.on('error', (error) => {
      this.logger.warn({
        msg: 'LISTEN connection lost; reconnecting',
        channel: this.channel,
        error: error.message,
      });
      if (this.client === client) this.client = null;
      client.end().catch(() => undefined);
      this.retryLater();
    });
    try {
      await client.connect();
      await client.query(`LISTEN "${this.channel}"`);
      this.client = client;
      if (this.lostOnce) this.options.onResumed?.();
    } catch (error) {
      await client.end().catch(() => undefined);
      this.logger.warn({
        msg: 'LISTEN unavailable; retrying',
        channel: this.channel,
        error: (error as Error).message,
      });
      this.retryLater();
    }
  }

  private retryLater(): void {
    this.lostOnce = true;
    if (!this.running || this.retryTimer) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      void this.listen().catch(() => undefined);
    }, this.options.retryDelayMs ?? 5000);
    this.retryTimer.unref();
  }
}

/** pg client settings for a TypeORM PostgreSQL DataSource's server, for a dedicated connection. */
export function pgClientConfigOf(options: PostgresDataSourceOptions, purpose: string): ClientConfig {
  const base: ClientConfig = {
    connectionTimeoutMillis: 5000,
    application_name: `${options.applicationName ?? 'swapgw'}-${purpose}`,
    keepAlive: true,
  };
  // serviceDataSourceOptions gave TypeORM the URL without its TLS parameters and `ssl` beside it.
  if (options.url) return { ...base, connectionString: options.url, ssl: options.ssl as ClientConfig['ssl'] };
  return {
    ...base,
    host: options.host,
    port: options.port,
    user: options.username,
    password: typeof options.password === 'string' ? options.password : undefined,
    database: options.database,
    ssl: options.ssl as ClientConfig['ssl'],
  };
}
