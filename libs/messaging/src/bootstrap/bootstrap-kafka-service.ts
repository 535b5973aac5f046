import type { Server } from 'node:http';
import { DynamicModule, INestMicroservice, Type } from '@nestjs/common';
import type { Consumer } from 'kafkajs';
import { DataSource } from 'typeorm';
import { HEARTBEAT_INTERVAL_BOUNDS, TopicSpec } from '@swapgw/contracts';
import {
  cacheValidationMetadata,
  Clock,
  closeOnSignals,
  initProcessMetrics,
  JsonLogger,
  runStartupWarmups,
  STARTUP_WARMUP_TIMEOUT_MS,
  STARTUP_WARMUPS,
  StartupWarmup,
  warmValidationMetadata,
  withTimeout,
} from '@swapgw/runtime';
import { ConsumerConcurrency } from '../kafka/consumer-concurrency';
import type { ConsumerLane } from '../kafka/key-ordered-kafka-server';
import { ensureTopics, topicsToEnsure } from '../kafka/ensure-topics';
import { checkKafkaSecurity } from '../kafka/kafka-health';
import { describeKafkaSecurity, PLAINTEXT_SECURITY } from '../kafka/kafka-security';
import { KafkaSettings } from '../kafka/kafka-settings';
import { HeartbeatPublisher } from '../heartbeat/heartbeat-publisher';
import { consumerConcurrencyOf, definedOnly, kafkaSettingsOf } from './messaging-environment';
import { KafkaServiceEnvironment } from './kafka-service-environment';
import { createKafkaMicroservice } from './create-kafka-microservice';
import { HealthChecks, healthBody, startHealthServer } from './health-server';

export interface KafkaServiceOptions {
  /** The app's root module: a class, or `AppModule.forRoot(config)`. */
  module: Type<unknown> | DynamicModule;
  /** App name: logger service name and Kafka client id. */
  service: string;
  /** Consumer group of the app's @MessagePattern / @EventPattern handlers (the app name). */
  groupId: string;
  /**
   * The app's validated config: Kafka settings, LOG_LEVEL, HEARTBEAT_INTERVAL_MS, HEALTH_HOST and
   * the KAFKA_CONSUMER_* caps. Tests without one give `settings` (and the rest explicitly).
   */
  config?: KafkaServiceEnvironment;
  healthPort: number;
  /** Defaults to the config's HEALTH_HOST (0.0.0.0). */
  healthHost?: string;
  /** Defaults to the config's (kafkaSettingsOf). */
  settings?: KafkaSettings;
  /** Topics to declare before consuming; defaults to every topic of the suite. */
  topics?: TopicSpec[];
  /** Runs before Nest starts, typically prepareDatabase() (migrations). Readiness waits for it. */
  prepare?: () => Promise<void>;
  /**
   * Caps on concurrent message handling (partitions at once, messages per partition, messages per
   * process); unset ones come from the config's KAFKA_CONSUMER_*, then the defaults. Same-key messages are
   * always handled in order. See ConsumerConcurrency.
   */
  concurrency?: Partial<ConsumerConcurrency>;
  /**
   * Topics consumed apart from the app's others, each lane by a consumer in a group of its own
   * (`<groupId>-<name>`): a backlog elsewhere never holds them up. Ready once every group is joined.
   */
  lanes?: readonly ConsumerLane[];
  /** Shorthand for `concurrency.partitions`. */
  partitionsConsumedConcurrently?: number;
  /** Where a brand-new consumer group starts: earliest retained message (default) or latest. */
  fromBeginning?: boolean;
  /**
   * Heartbeats on `service.heartbeats` (what the gateway's GET /health reads), every `intervalMs`
   * (default the config's HEARTBEAT_INTERVAL_MS, else 5 s) while the service is ready;
   * false sends none.
   */
  heartbeat?: { intervalMs?: number } | false;
  /**
   * How long the app's warm-ups (its STARTUP_WARMUPS provider) may hold readiness back; default
   * STARTUP_WARMUP_TIMEOUT_MS. Past it the service starts consuming and reports ready anyway.
   */
  warmupTimeoutMs?: number;
}

export interface KafkaServiceHandle {
  app: INestMicroservice;
  health: Server;
  close(): Promise<void>;
}

/**
 * Starts one of the Kafka services: health endpoint first (live at once, ready later), topics,
 * the caller's preparation (migrations), the Nest app with the JSON logger, its warm-ups
 * (STARTUP_WARMUPS, bounded), then its consumer: ready means ready for the first request. SIGTERM
 * closes it in order: consumers finish and leave their group, then the app's shutdown hooks run.
 * Whatever stops the start (a bad KAFKA_BROKERS, a taken health port, Kafka or the database away)
 * is logged as fatal here, so a main() only has to exit.
 */
export async function bootstrapKafkaService(options: KafkaServiceOptions): Promise<KafkaServiceHandle> {
  const logger = new JsonLogger(options.service, options.config?.LOG_LEVEL);
  try {
    return await startKafkaService(options, logger);
  } catch (error) {
    logger.fatal(
      { msg: 'service failed to start', error: (error as Error).message, stack: (error as Error).stack },
      'Bootstrap',
    );
    throw error;
  }
}

async function startKafkaService(
  options: KafkaServiceOptions,
  logger: JsonLogger,
): Promise<KafkaServiceHandle> {
  initProcessMetrics(options.service);
  cacheValidationMetadata();
  const { config } = options;
  const settings = options.settings ?? (config && kafkaSettingsOf(config, options.service));
  if (!settings) throw new Error('bootstrapKafkaService needs the app config or Kafka settings');
  let prepared = false;
  let warmedUp = false;
  let consumerJoined = false;
  let dataSource: DataSource | null = null;

  const checks: HealthChecks = {
    kafka: () => consumerJoined,
    database: async () => {
      if (!prepared) return false;
      if (!dataSource) return true;
      await withTimeout(dataSource.query('SELECT 1'), 2000);
      return true;
    },
    warmup: () => warmedUp,
  };
  const health = await startHealthServer(
    options.healthPort,
    options.healthHost ?? config?.HEALTH_HOST ?? '0.0.0.0',
    checks,
  );
  // The process ends on SIGTERM (closeOnSignals); the health server must never keep it alive.
  health.unref();
  logger.log({ msg: 'health endpoint listening', port: options.healthPort }, 'Bootstrap');

  try {
    // Wrong credentials or certificates stop the start here, with the setting to fix, instead of
    // kafkajs retrying for minutes; the process exits and never reports ready.
    await checkKafkaSecurity(settings);
    await ensureTopics(settings, options.topics ?? topicsToEnsure(settings, options.service));
    await options.prepare?.();
    prepared = true;

    // Errors reach our catch (and the fatal log) instead of Nest calling process.exit itself.
    const app = await createKafkaMicroservice(options.module, settings, options.groupId, {
      concurrency: {
        ...(config ? consumerConcurrencyOf(config) : {}),
        ...definedOnly({ partitions: options.partitionsConsumedConcurrently, ...options.concurrency }),
      },
      fromBeginning: options.fromBeginning,
      // After a broker restart kafkajs may give up on the consumer: the server runs it again.
      restartAfterFatalCrash: true,
      lanes: options.lanes,
      logger,
    });
    const heartbeat = heartbeatPublisherOf(options, settings, checks, app);
    try {
      dataSource = app.get(DataSource, { strict: false });
    } catch {
      dataSource = null; // an app without TypeORM: its readiness only depends on Kafka
    }
    // The app's own start (onModuleInit, onApplicationBootstrap: the catalog seed), then its
    // warm-ups, both before the consumer starts: the first message finds everything loaded.
    await app.init();
    await warmUp(app, options.warmupTimeoutMs ?? STARTUP_WARMUP_TIMEOUT_MS, logger);
    warmedUp = true;
    await app.listen();
    // The app's consumer, then its lanes': ready while every one is in its group.
    const [, appConsumer, , ...laneConsumers] = app.unwrap<[unknown, Consumer, unknown, ...Consumer[]]>();
    const consumers = [appConsumer, ...laneConsumers];
    const joinedConsumers = new Set<Consumer>();
    for (const consumer of consumers) {
      trackGroupMembership(consumer, (joined) => {
        if (joined) joinedConsumers.add(consumer);
        else joinedConsumers.delete(consumer);
        consumerJoined = joinedConsumers.size === consumers.length;
        // Ready now: say so at once rather than at the next interval (a restarted service shows up sooner).
        if (consumerJoined) void heartbeat?.beat();
      });
    }
    heartbeat?.start();
    // Not Nest's enableShutdownHooks: it runs the app's shutdown hooks before it closes the Kafka
    // server, so consumers would still be handling messages while the relay and the pool closed.
    const signals = closeOnSignals(() => handle.close(), logger, { context: 'Bootstrap' });
    const handle: KafkaServiceHandle = {
      app,
      health,
      close: async () => {
        signals.unsubscribe();
        await heartbeat?.stop();
        // The server first (the consumers finish their messages and leave the group), then the
        // app's shutdown hooks (MessagingModule's relay publishes what they wrote; TypeORM last).
        await app.close();
        await closeServer(health);
      },
    };
    logger.log(
      {
        msg: 'service started',
        groupId: options.groupId,
        brokers: settings.brokers,
        kafkaSecurity: describeKafkaSecurity(settings.security ?? PLAINTEXT_SECURITY),
        heartbeatIntervalMs: heartbeat?.intervalMs ?? null,
      },
      'Bootstrap',
    );
    return handle;
  } catch (error) {
    await closeServer(health);
    throw error;
  }
}

/**
 * The service's heartbeats, sent while `checks` say ready; null when the options turn them off.
 * Beats are stamped by the app's Clock (its global root module provides it), like its messages.
 */
function heartbeatPublisherOf(
  options: KafkaServiceOptions,
  settings: KafkaSettings,
  checks: HealthChecks,
  app: INestMicroservice,
): HeartbeatPublisher | null {
  if (options.heartbeat === false) return null;
  return new HeartbeatPublisher(settings, options.service, app.get(Clock, { strict: false }), {
    intervalMs:
      options.heartbeat?.intervalMs ??
      options.config?.HEARTBEAT_INTERVAL_MS ??
      HEARTBEAT_INTERVAL_BOUNDS.default,
    // Beats say "ready", exactly what /health/ready answers 200 for.
    isReady: async () => (await healthBody(checks)).status === 'ok',
  });
}

/**
 * Every service's: the rules of each message class worked out (cacheValidationMetadata keeps them),
 * what the first message of each type would otherwise pay.
 */
const VALIDATION_METADATA_WARMUP: StartupWarmup = {
  warmupName: 'validation metadata',
  warmUp: async () => warmValidationMetadata(),
};

/**
 * Runs the validation metadata warm-up and the app's STARTUP_WARMUPS (none when it lists none), bounded by `timeoutMs`: a warm-up that
 * fails or runs past the bound is logged and the start carries on, as first use would have.
 */
async function warmUp(app: INestMicroservice, timeoutMs: number, logger: JsonLogger): Promise<void> {
  const warmups: StartupWarmup[] = [VALIDATION_METADATA_WARMUP];
  try {
    warmups.push(...app.get<StartupWarmup[]>(STARTUP_WARMUPS, { strict: false }));
  } catch {
    // the app lists no warm-ups of its own
  }
  const results = await runStartupWarmups(warmups, timeoutMs, (result) => {
    const entry = {
      msg: 'startup warm-up settled',
      warmup: result.name,
      outcome: result.outcome,
      ms: result.ms,
    };
    if (result.outcome === 'done') logger.log(entry, 'Bootstrap');
    else logger.warn({ ...entry, error: result.error, boundMs: timeoutMs }, 'Bootstrap');
  });
  logger.log({ msg: 'startup warm-ups settled', warmups: results.length }, 'Bootstrap');
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}

/**
 * Follows the consumer's group membership. `listen()` resolves before the first join, but the join
 * may land before this listener is attached, so the current group state is also asked once.
 */
function trackGroupMembership(consumer: Consumer, onChange: (joined: boolean) => void): void {
  consumer.on(consumer.events.GROUP_JOIN, () => onChange(true));
  for (const event of [
    consumer.events.REBALANCING,
    consumer.events.CRASH,
    consumer.events.STOP,
    consumer.events.DISCONNECT,
  ]) {
    consumer.on(event, () => onChange(false));
  }
  void consumer
    .describeGroup()
    .then((group) => {
      if (group.state === 'Stable' && group.members.length > 0) onChange(true);
    })
    .catch(() => undefined);
}
