import {
  BeforeApplicationShutdown,
  DynamicModule,
  Inject,
  Injectable,
  Logger,
  Module,
  OnApplicationBootstrap,
  Optional,
  Provider,
} from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Clock } from '@swapgw/runtime';
import { IdempotentConsumer, IdempotentConsumerOptions } from './consumer/idempotent-consumer';
import { ConsumerLane, laneGroupIdOf } from './kafka/key-ordered-kafka-server';
import { KafkaSettings } from './kafka/kafka-settings';
import {
  kafkaSettingsOf,
  MessagingEnvironment,
  messagingRetentionOf,
} from './bootstrap/messaging-environment';
import { ConsumerLagSampler } from './metrics/consumer-lag-sampler';
import { MessagingRetentionOptions, MessagingRetentionPurge } from './outbox/messaging-retention-purge';
import { DEFAULT_MESSAGING_RETENTION } from './outbox/messaging-retention-settings';
import { Outbox } from './outbox/outbox';
import { OutboxRelay, OutboxRelayOptions } from './outbox/outbox-relay';
import { RequestReplyClient, RequestReplyClientOptions } from './request-reply/request-reply.client';
import { RequestResponder, RequestResponderOptions } from './request-reply/request-responder';

export const MESSAGING_OPTIONS = Symbol('MESSAGING_OPTIONS');
export const KAFKA_SETTINGS = Symbol('KAFKA_SETTINGS');

interface MessagingModuleBaseOptions {
  /** Kafka client id, normally the app name. */
  clientId: string;
  /** Request-reply topics this app sends to: provides a RequestReplyClient. */
  requestTopics?: readonly string[];
  /**
   * Consumer group of this app's stream consumers and responders (the app name). With a TypeORM
   * DataSource in the app, provides IdempotentConsumer scoped to this group.
   */
  groupId?: string;
  /** Provides Outbox and runs an OutboxRelay on the app's TypeORM DataSource. */
  outbox?: boolean;
  requestReply?: RequestReplyClientOptions;
  relay?: OutboxRelayOptions;
  consumer?: IdempotentConsumerOptions;
  responder?: RequestResponderOptions;
  /**
   * Purge of the messaging tables past retention (published outbox rows, processed_events), on by
   * default with an outbox or a groupId: retention hours default to OUTBOX_RETENTION_HOURS and
   * PROCESSED_EVENTS_RETENTION_HOURS of `config` (else their defaults). A schema without the tables has nothing
   * to purge. false turns it off.
   */
  retention?: MessagingRetentionOptions | false;
  /**
   * Lag of `groupId`, and of its lanes' groups, sampled into swapgw_kafka_consumer_lag_messages
   * every intervalMs (default 15 s); false turns it off. Only with a groupId.
   */
  consumerLag?: { intervalMs?: number } | false;
  /**
   * The consumer lanes the app's Kafka server runs (the same list bootstrapKafkaService gets): each
   * lane's group (`<groupId>-<name>`) has its lag sampled with the app's own group.
   */
  lanes?: readonly ConsumerLane[];
}

/**
 * Where Kafka is and the retention of the messaging tables come from the app's validated config
 * (`config`), or, for tests and tools without one, from explicit `settings` (retention defaults).
 */
export type MessagingModuleOptions = MessagingModuleBaseOptions &
  (
    | { config: MessagingEnvironment; settings?: KafkaSettings }
    | { config?: undefined; settings: KafkaSettings }
  );

function requireDataSource(dataSource: DataSource | null | undefined, what: string): DataSource {
  if (!dataSource) {
    throw new Error(
      `MessagingModule: ${what} needs a TypeORM DataSource (import TypeOrmModule.forRoot in the app module)`,
    );
  }
  return dataSource;
}

/**
 * Starts and stops what MessagingModule created, in step with the Nest application. It stops in
 * `beforeApplicationShutdown`, not `onApplicationShutdown`: TypeORM closes its pool in the latter,
 * and Nest runs that hook of two global modules in no order of ours (TypeOrmCoreModule came first:
 * a relay round in flight had its COMMIT cut off, "Connection terminated"). The app's servers are
 * closed before these hooks (`app.close()`; Kafka services close theirs first on SIGTERM too, see
 * bootstrapKafkaService), so the last messages handled still have their outbox rows published.
 */
@Injectable()
class MessagingLifecycle implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('MessagingModule');
  private reconnectTimer: NodeJS.Timeout | undefined;
  private shuttingDown = false;

  constructor(
    @Optional() @Inject(RequestReplyClient) private readonly requester: RequestReplyClient | null,
    @Optional() @Inject(OutboxRelay) private readonly relay: OutboxRelay | null,
    @Optional() @Inject(ConsumerLagSampler) private readonly lagSampler: ConsumerLagSampler | null,
    @Optional()
    @Inject(MessagingRetentionPurge)
    private readonly retentionPurge: MessagingRetentionPurge | null,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.lagSampler?.start();
    this.retentionPurge?.start();
    await this.relay?.start();
    // Serving starts only after the reply consumer joined; if Kafka is down now, the app still
    // starts, its requests answer SERVICE_UNAVAILABLE until the client connects (retried in the
    // background and by each request).
    if (this.requester) await this.connectRequester(this.requester, 1);
  }

  /**
   * Connects the request-reply client, and on failure keeps retrying in the background with
   * back-off (requests share the same attempt). Otherwise the first request after a failed start
   * (e.g. reply topics without a leader yet on a fresh broker) pays the whole connection, group
   * join included, within its own timeout, and on a slow network always runs out of it.
   */
  private async connectRequester(requester: RequestReplyClient, attempt: number): Promise<void> {
    try {
      await requester.connect();
    } catch (error) {
      if (this.shuttingDown) return;
      const delayMs = Math.min(30_000, 1000 * 2 ** Math.min(attempt - 1, 5));
      this.logger.error({
        msg: 'request-reply client not connected; retrying',
        attempt,
        delayMs,
        error: (error as Error).message,
      });
      this.reconnectTimer = setTimeout(() => void this.connectRequester(requester, attempt + 1), delayMs);
      this.reconnectTimer.unref();
    }
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.shuttingDown = true;
    clearTimeout(this.reconnectTimer);
    await Promise.allSettled([
      this.requester?.close(),
      this.relay?.stop(),
      this.lagSampler?.stop(),
      this.retentionPurge?.stop(),
    ]);
  }
}

/** The explicit settings, else those of the app's config. */
function kafkaSettingsOfOptions(options: MessagingModuleOptions): KafkaSettings {
  if (options.settings) return options.settings;
  if (!options.config) throw new Error('MessagingModule needs the app config or Kafka settings');
  return kafkaSettingsOf(options.config, options.clientId);
}

/**
 * What the app sends and receives over Kafka. Everything it builds that reads the time takes the
 * app's one Clock (`{ provide: Clock, useClass: SystemClock }` in the app's global root module,
 * exported), so a test sets the time of every messaging decision through that Clock alone.
 */
@Module({})
export class MessagingModule {
  static forRoot(options: MessagingModuleOptions): DynamicModule {
    const settings = kafkaSettingsOfOptions(options);
    const group = options.groupId ?? options.clientId;
    const providers: Provider[] = [
      { provide: MESSAGING_OPTIONS, useValue: options },
      { provide: KAFKA_SETTINGS, useValue: settings },
      {
        provide: RequestResponder,
        inject: [Clock],
        useFactory: (clock: Clock) => new RequestResponder(group, clock, options.responder),
      },
      MessagingLifecycle,
    ];
    const exported: Array<string | symbol | (abstract new (...args: never[]) => unknown)> = [
      MESSAGING_OPTIONS,
      KAFKA_SETTINGS,
      RequestResponder,
    ];

    if (options.requestTopics && options.requestTopics.length > 0) {
      const topics = options.requestTopics;
      providers.push({
        provide: RequestReplyClient,
        inject: [Clock],
        useFactory: (clock: Clock) => new RequestReplyClient(settings, topics, clock, options.requestReply),
      });
      exported.push(RequestReplyClient);
    }
    if (options.groupId) {
      providers.push({
        provide: IdempotentConsumer,
        inject: [Clock, { token: DataSource, optional: true }],
        useFactory: (clock: Clock, dataSource?: DataSource) =>
          new IdempotentConsumer(
            requireDataSource(dataSource, 'IdempotentConsumer'),
            group,
            clock,
            options.consumer,
          ),
      });
      exported.push(IdempotentConsumer);
      if (options.consumerLag !== false) {
        const intervalMs = options.consumerLag?.intervalMs;
        providers.push({
          provide: ConsumerLagSampler,
          useFactory: () =>
            new ConsumerLagSampler(
              settings,
              [group, ...(options.lanes ?? []).map((lane) => laneGroupIdOf(group, lane))],
              intervalMs,
            ),
        });
        exported.push(ConsumerLagSampler);
      }
    }
    if (options.outbox) {
      providers.push(
        { provide: Outbox, inject: [Clock], useFactory: (clock: Clock) => new Outbox(clock) },
        {
          provide: OutboxRelay,
          inject: [{ token: DataSource, optional: true }],
          useFactory: (dataSource?: DataSource) =>
            new OutboxRelay(requireDataSource(dataSource, 'the outbox'), settings, options.relay),
        },
      );
      exported.push(Outbox, OutboxRelay);
    }
    // Where the messaging tables may be: the outbox's, or processed_events of the group's consumers.
    if ((options.outbox || options.groupId) && options.retention !== false) {
      const retention = options.retention;
      providers.push({
        provide: MessagingRetentionPurge,
        inject: [{ token: DataSource, optional: true }],
        useFactory: (dataSource?: DataSource) =>
          new MessagingRetentionPurge(requireDataSource(dataSource, 'the messaging tables purge'), {
            ...(options.config ? messagingRetentionOf(options.config) : DEFAULT_MESSAGING_RETENTION),
            ...retention,
          }),
      });
      exported.push(MessagingRetentionPurge);
    }
    return { module: MessagingModule, global: true, providers, exports: exported };
  }
}
