import { Transform } from 'class-transformer';
import { IsBoolean, IsInt, IsNotEmpty, IsString, Matches, Max, Min } from 'class-validator';
import { MessagingEnvironment } from '@swapgw/messaging';
import { toBooleanFlag } from '@swapgw/runtime';

/**
 * Everything the gateway reads from the environment, validated at boot (loadConfig): a bad value
 * stops the process with a message naming the variable. Property names are the variable names.
 */
export class GatewayConfig extends MessagingEnvironment {
  @IsInt()
  @Min(0) // 0 = any free port (tests)
  @Max(65535)
  PORT: number = 3000;

  @IsString()
  @IsNotEmpty()
  HOST: string = '127.0.0.1';

  /**
   * Connections the kernel queues for the HTTP listener until the gateway accepts them (listen's
   * backlog; Linux caps it at net.core.somaxconn, 4096 by default). Node's default of 511 dropped
   * connections of a burst of 3,000 wallets at once: resets and 30 s timeouts on the client's side.
   */
  @IsInt()
  @Min(1)
  @Max(65535)
  HTTP_BACKLOG: number = 4096;

  /**
   * Listening sockets on PORT (SO_REUSEPORT, in this one process) that take new connections. The
   * event loop accepts one connection per socket per turn, and a turn takes tens of milliseconds
   * under load: with one socket, 1,000 wallets connecting at once waited up to 20 s in the kernel's
   * queue before their request was read. 1 = a single socket, without SO_REUSEPORT.
   */
  @IsInt()
  @Min(1)
  @Max(256)
  HTTP_ACCEPT_SOCKETS: number = 16;

  /**
   * Port of GET /metrics (Prometheus text format), on HOST: a server of its own, apart from the
   * public API port, so that the scraper's port need not be exposed with the API. 0 = any free port (tests).
   */
  @IsInt()
  @Min(0)
  @Max(65535)
  METRICS_PORT: number = 9464;

  /**
   * Bound of handing a command (swap.build) to Kafka, acknowledgement by every in-sync replica
   * included: past it the build answers 503 and is safe to retry with its Idempotency-Key.
   */
  @IsInt()
  @Min(100)
  @Max(30_000)
  COMMAND_SEND_TIMEOUT_MS: number = 5000;

  /** Consumer group of the gateway's Kafka consumers (the swap read-model projector). */
  @IsString()
  @Matches(/^[A-Za-z0-9._-]{1,100}$/, { message: 'KAFKA_GROUP_ID must be 1-100 characters of A-Za-z0-9._-' })
  KAFKA_GROUP_ID: string = 'gateway';

  /** Largest accepted request body (bytes). Our largest body, a signed transaction, is a few KiB. */
  @IsInt()
  @Min(1024)
  @Max(10 * 1024 * 1024)
  BODY_LIMIT_BYTES: number = 64 * 1024;

  /** Requests allowed per API key per window, counted across all gateway instances. */
  @IsInt()
  @Min(1)
  RATE_LIMIT_REQUESTS: number = 600;

  @IsInt()
  @Min(1)
  @Max(3600)
  RATE_LIMIT_WINDOW_SECONDS: number = 60;

  /**
   * How often each instance adds the requests it counted to the shared PostgreSQL counters and
   * learns the other instances' totals. Requests are decided from memory in between, so a longer
   * interval means fewer statements and a larger possible overshoot (docs/api-conventions.md, Limits).
   */
  @IsInt()
  @Min(10)
  @Max(60_000)
  RATE_LIMIT_SYNC_INTERVAL_MS: number = 1000;

  /** How long a resolved API key is trusted without asking the database: the revocation delay. */
  @IsInt()
  @Min(0)
  @Max(300_000)
  AUTH_CACHE_TTL_MS: number = 30_000;

  /**
   * How long a catalog answer (GET /chains, /tokens, /pairs with the same query) is served from this
   * instance's memory; 0 asks quote-service every time. The catalog changes when chains or tokens
   * are added, so a few seconds of staleness buy a request-reply round trip per read.
   */
  @IsInt()
  @Min(0)
  @Max(300_000)
  CATALOG_CACHE_TTL_MS: number = 5_000;

  /**
   * How long past CATALOG_CACHE_TTL_MS a catalog answer is still served while one reload runs behind
   * it, and while reloads fail: a catalog read never waits behind a flood of quotes on a busy
   * quote-service, nor answers 502 while it restarts. Past this window (or for a query never asked
   * before) the read waits for quote-service, and 502 DISCOVERY_UPSTREAM_UNAVAILABLE when it does
   * not answer. 0: an expired answer is never served.
   */
  @IsInt()
  @Min(0)
  @Max(3_600_000)
  CATALOG_CACHE_STALE_MS: number = 300_000;

  /** Stored idempotent responses are replayable at least this long (spec: at least 24 h). */
  @IsInt()
  @Min(24)
  IDEMPOTENCY_TTL_HOURS: number = 24;

  /** A claim still in progress after this long is considered abandoned (crashed instance). */
  @IsInt()
  @Min(1000)
  IDEMPOTENCY_LEASE_MS: number = 120_000;

  /** Default bound of a request-reply call to a service (mapped to 503 when exceeded). */
  @IsInt()
  @Min(100)
  @Max(120_000)
  SERVICE_REQUEST_TIMEOUT_MS: number = 10_000;

  /** In-flight requests get this long to finish on SIGTERM before the process exits anyway. */
  @IsInt()
  @Min(0)
  SHUTDOWN_TIMEOUT_MS: number = 15_000;

  /** Bound of each dependency check of GET /health. */
  @IsInt()
  @Min(100)
  @Max(30_000)
  HEALTH_CHECK_TIMEOUT_MS: number = 3000;

  /**
   * GET /health reports a Kafka service down when none of its instances sent a heartbeat for this
   * long (services beat every HEARTBEAT_INTERVAL_MS, 5 s: keep this at least 2-3 intervals). Also
   * the grace after start: until the instance has listened this long, an unheard service is `unknown`.
   */
  @IsInt()
  @Min(500)
  @Max(600_000)
  SERVICE_HEARTBEAT_TIMEOUT_MS: number = 15_000;

  /**
   * A zero-wait build takes a connection four times (its Idempotency-Key's claim, the quote's plan,
   * the swap's row, the stored answer): with 10, a 1,000-build burst waited seconds per step and
   * builds were not answered within 5 s (issue 44).
   */
  @IsInt()
  @Min(1)
  @Max(100)
  DB_POOL_SIZE: number = 20;

  /**
   * Swap views kept in memory for signing polls, dropped when their row changes (LISTEN/NOTIFY).
   * 0 turns the cache off: every poll reads PostgreSQL.
   */
  @IsInt()
  @Min(0)
  @Max(1_000_000)
  SWAP_VIEW_CACHE_ENTRIES: number = 20_000;

  /** Longest a cached swap view is used without reading it again (the bound on staleness if a NOTIFY were lost unnoticed). */
  @IsInt()
  @Min(100)
  @Max(600_000)
  SWAP_VIEW_CACHE_TTL_MS: number = 10_000;

  /**
   * Open GET /swap/{swapId}/events streams per API key on one gateway instance; one more answers 429
   * RATE_LIMITED. Counted per instance: it bounds the sockets and memory a key holds on each.
   */
  @IsInt()
  @Min(1)
  @Max(10_000)
  SWAP_EVENT_STREAMS_PER_KEY: number = 10;

  /** A `: keep-alive` comment is written on an idle event stream this often, so proxies keep it open. */
  @IsInt()
  @Min(1000)
  @Max(300_000)
  SWAP_EVENT_HEARTBEAT_MS: number = 15_000;

  /** Swap events are kept this long for streams and their resumption (Last-Event-ID), then purged. */
  @IsInt()
  @Min(1)
  @Max(24 * 365)
  SWAP_EVENT_RETENTION_HOURS: number = 168;

  /**
   * Runs the webhook consumer group and the delivery dispatcher in this instance. The webhook routes
   * are served either way; false lets an operator run delivery as a deployment of its own.
   */
  @Transform(toBooleanFlag, { toClassOnly: true })
  @IsBoolean({ message: 'WEBHOOKS_ENABLED must be true or false' })
  WEBHOOKS_ENABLED: boolean = true;

  /** Consumer group of the webhook consumer (swap.events, limit-order.events): apart from the projector's. */
  @IsString()
  @Matches(/^[A-Za-z0-9._-]{1,100}$/, {
    message: 'WEBHOOK_KAFKA_GROUP_ID must be 1-100 characters of A-Za-z0-9._-',
  })
  WEBHOOK_KAFKA_GROUP_ID: string = 'gateway-webhooks';

  /**
   * Development only: accept `http://` webhook URLs on loopback hosts (127.0.0.0/8, ::1, localhost).
   * Off, webhooks are `https` only and never to private, loopback or link-local addresses.
   */
  @Transform(toBooleanFlag, { toClassOnly: true })
  @IsBoolean({ message: 'WEBHOOK_ALLOW_LOOPBACK_HTTP must be true or false' })
  WEBHOOK_ALLOW_LOOPBACK_HTTP: boolean = false;

  /**
   * Delivered and dead webhook deliveries (the delivery log) are kept this long, then purged; so are
   * the swap owners the webhook consumer remembers. Pending deliveries are never purged.
   */
  @IsInt()
  @Min(25)
  @Max(24 * 365)
  WEBHOOK_DELIVERY_RETENTION_HOURS: number = 168;

  /**
   * How often the dispatcher looks for due retries when the last pass found none (new and redelivered
   * deliveries wake it at once through NOTIFY).
   */
  @IsInt()
  @Min(50)
  @Max(60_000)
  WEBHOOK_DISPATCH_INTERVAL_MS: number = 5000;

  /** Bound of one delivery attempt (connect, send, answer); past it the attempt failed and is retried. */
  @IsInt()
  @Min(100)
  @Max(60_000)
  WEBHOOK_DELIVERY_TIMEOUT_MS: number = 10_000;

  /** Deliveries one pass claims at once (sent concurrently). */
  @IsInt()
  @Min(1)
  @Max(500)
  WEBHOOK_DISPATCH_BATCH: number = 20;

  /**
   * How long a claimed delivery belongs to the instance that claimed it. An instance that died
   * mid-attempt leaves its rows to the others after this; keep it above WEBHOOK_DELIVERY_TIMEOUT_MS.
   */
  @IsInt()
  @Min(1000)
  @Max(3_600_000)
  WEBHOOK_LEASE_MS: number = 60_000;

  /** Delay before the first retry; doubled per attempt (with jitter) up to WEBHOOK_RETRY_MAX_DELAY_MS. */
  @IsInt()
  @Min(10)
  @Max(3_600_000)
  WEBHOOK_RETRY_BASE_DELAY_MS: number = 10_000;

  @IsInt()
  @Min(10)
  @Max(86_400_000)
  WEBHOOK_RETRY_MAX_DELAY_MS: number = 3_600_000;

  /** A delivery not answered with 2xx within this long after its first attempt is `dead` (issue: at least 24 h). */
  @IsInt()
  @Min(1000)
  @Max(30 * 86_400_000)
  WEBHOOK_RETRY_WINDOW_MS: number = 86_400_000;

  get kafkaBrokers(): string[] {
    return this.KAFKA_BROKERS.split(',').map((b) => b.trim());
  }
}
