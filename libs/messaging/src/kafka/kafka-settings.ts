import { hostname } from 'node:os';
import type { KafkaOptions } from '@nestjs/microservices';
import type { KafkaConfig, logCreator as LogCreator } from 'kafkajs';
import { logLevel, Partitioners } from 'kafkajs';
import { JsonLogger, LogLevelName } from '@swapgw/runtime';
import {
  ConsumerConcurrency,
  DEFAULT_CONSUMER_CONCURRENCY,
  resolveConsumerConcurrency,
} from './consumer-concurrency';
import { ConsumerLane, KeyOrderedKafkaServer } from './key-ordered-kafka-server';
import { fixKafkajsRequestQueueTimer } from './kafkajs-request-queue-timer';
import { KafkaSecurity, kafkaSecurityFrom, kafkajsSecurityOptions } from './kafka-security';

export const DEFAULT_KAFKA_BROKERS = '127.0.0.1:9092';

/** Where the brokers are and who we are: everything a Kafka client of the suite needs. */
export interface KafkaSettings {
  brokers: string[];
  clientId: string;
  /** Distinguishes instances of one app (per-instance reply consumer group, logs). */
  instanceId: string;
  /** TLS and SASL (kafka-security.ts); absent: PLAINTEXT. */
  security?: KafkaSecurity;
  /**
   * false (KAFKA_MANAGE_TOPICS=false): the apps create no topic and change no partition count, they
   * only check that their topics exist (ensureTopics). Default true.
   */
  manageTopics?: boolean;
  /** The app's LOG_LEVEL, for kafkajs's own lines; absent: `log`. */
  logLevel?: LogLevelName;
}

/** KAFKA_MANAGE_TOPICS: `true`/`1` (default) or `false`/`0`; anything else is an error naming it. */
export function parseManageTopics(value: string | undefined): boolean {
  const v = (value ?? '').trim().toLowerCase();
  if (v === '' || v === 'true' || v === '1') return true;
  if (v === 'false' || v === '0') return false;
  throw new Error(`KAFKA_MANAGE_TOPICS must be true or false (got "${value}")`);
}

export function parseBrokers(value: string | undefined): string[] {
  const brokers = (value ?? DEFAULT_KAFKA_BROKERS)
    .split(',')
    .map((b) => b.trim())
    .filter((b) => b.length > 0);
  if (brokers.length === 0) throw new Error('KAFKA_BROKERS lists no broker');
  for (const broker of brokers) {
    if (!/^[^\s:]+:\d{1,5}$/.test(broker))
      throw new Error(`KAFKA_BROKERS entry "${broker}" is not host:port`);
  }
  return brokers;
}

/** Kafka group ids and client ids accept a limited alphabet; instance ids come from hostnames. */
export const sanitizeInstanceId = (value: string): string =>
  value.replace(/[^A-Za-z0-9._-]/g, '-').slice(0, 100);

/**
 * Kafka settings from raw variables, for tools and tests that have no app config (an app uses
 * kafkaSettingsOf(config), from its validated config).
 */
export function kafkaSettingsFromEnv(
  clientId: string,
  env: Record<string, string | undefined>,
): KafkaSettings {
  return {
    brokers: parseBrokers(env.KAFKA_BROKERS || undefined),
    clientId,
    instanceId: sanitizeInstanceId(env.INSTANCE_ID || `${hostname()}-${process.pid}`),
    security: kafkaSecurityFrom(env),
    manageTopics: parseManageTopics(env.KAFKA_MANAGE_TOPICS),
  };
}

const KAFKAJS_LEVEL: Record<number, 'error' | 'warn' | 'log' | 'debug'> = {
  [logLevel.ERROR]: 'error',
  [logLevel.WARN]: 'warn',
  [logLevel.INFO]: 'log',
  [logLevel.DEBUG]: 'debug',
};

/**
 * Kafka's answers while a broker starts or moves leadership (kafkajs's messages; every one is
 * retriable, and kafkajs retries it): kafkajs logs each such answer as an error, although nothing
 * failed yet. They are logged as warnings; what gives up after them still logs its own error.
 */
const TRANSIENT_BROKER_ANSWERS = new Set([
  'The group coordinator is not available',
  "The coordinator is loading and hence can't process requests for this group",
  'This is not the correct coordinator for this group',
  'There is no leader for this topic-partition as we are in the middle of a leadership election',
  'This server is not the leader for that topic-partition',
]);

/** A consumer's crash on a broker's answer, as kafkajs logs it, for the answer. */
const CRASH = /^Crash: KafkaJSProtocolError: (.*)$/s;

/**
 * The logger method for a kafkajs log line. A transient answer (TRANSIENT_BROKER_ANSWERS) is a
 * warning both as a response and as the crash of a consumer it ended: kafkajs restarts a consumer
 * after such a crash (the answer is retriable), and a restart that gives up logs its own error
 * (`Crash: KafkaJSNumberOfRetriesExceeded…`).
 */
export function kafkajsLogMethod(level: number, log: { message?: string; error?: unknown }) {
  const method = KAFKAJS_LEVEL[level] ?? 'log';
  if (method !== 'error') return method;
  const answer =
    log.message?.startsWith('Response ') === true ? log.error : CRASH.exec(log.message ?? '')?.[1];
  return typeof answer === 'string' && TRANSIENT_BROKER_ANSWERS.has(answer) ? 'warn' : method;
}

/** Routes kafkajs logs through the JSON logger instead of kafkajs's own console format. */
export function kafkaLogCreator(service: string, level: LogLevelName = 'log'): LogCreator {
  const logger = new JsonLogger(service, level);
  return () =>
    ({ level, log }) => {
      const { message, ...extra } = log;
      logger[kafkajsLogMethod(level, log)]({ msg: message, kafka: extra }, 'kafkajs');
    };
}

/**
 * kafkajs client config. Retries back off up to 30 s so that a broker restart is ridden out
 * rather than crashing consumers; request-reply callers bound their own wait with a timeout.
 */
export function kafkaClientConfig(
  settings: KafkaSettings,
  overrides: Partial<KafkaConfig> = {},
): KafkaConfig {
  fixKafkajsRequestQueueTimer();
  return {
    clientId: settings.clientId,
    brokers: settings.brokers,
    ...(settings.security ? kafkajsSecurityOptions(settings.security) : {}),
    connectionTimeout: 3000,
    requestTimeout: 30000,
    retry: { initialRetryTime: 300, maxRetryTime: 30000, retries: 10, factor: 0.2, multiplier: 2 },
    logLevel: logLevel.WARN,
    logCreator: kafkaLogCreator(settings.clientId, settings.logLevel),
    ...overrides,
  };
}

/**
 * Session, heartbeat and fetch settings shared by every consumer: long handlers also heartbeat
 * explicitly. A member learns of a rebalance (another instance joined or left) from a heartbeat's
 * answer, and the partitions being moved do no work until every member has rejoined: a 1 s
 * heartbeat keeps that pause to about a second (3 s before: a stopped planner cost a burst three
 * seconds on half its partitions).
 *
 * kafkajs heartbeats from its fetch loop (after each fetch and each batch), so a member whose
 * partitions have nothing new waits out the broker's long poll before it can hear of a rebalance:
 * `maxWaitTimeInMs` must not be longer than the heartbeat interval. At kafkajs's default of 5 s the
 * planner that survived a scale-in sat idle in a fetch for up to 4 s while the whole group waited
 * for it. An idle consumer now sends one fetch a second instead of one every 5 s.
 */
export const CONSUMER_TIMINGS = {
  sessionTimeout: 30000,
  rebalanceTimeout: 60000,
  heartbeatInterval: 1000,
  maxWaitTimeInMs: 1000,
} as const;

export interface KafkaConsumerOptions {
  /** Where a brand-new consumer group starts: earliest retained message (default) or latest. */
  fromBeginning?: boolean;
  /** Caps on concurrent work; unset ones come from the environment, then the defaults. */
  concurrency?: Partial<ConsumerConcurrency>;
  /**
   * Connect and run the consumer again, with back-off, when kafkajs gives up on it for good (see
   * KeyOrderedKafkaServer); off by default, bootstrapKafkaService turns it on.
   */
  restartAfterFatalCrash?: boolean;
  /** Topics consumed apart from the others, each lane by a consumer and group of its own (ConsumerLane). */
  lanes?: readonly ConsumerLane[];
}

/**
 * The Kafka options of the suite's consumers (responders and stream consumers).
 * `postfixId: ''` keeps the group id exactly `groupId` (Nest appends "-server" otherwise), and
 * topics are never auto-created: `ensureTopics` declares them with the right partition counts.
 */
export function kafkaServerOptions(
  settings: KafkaSettings,
  groupId: string,
  options: { fromBeginning?: boolean; partitionsConsumedConcurrently?: number } = {},
): Required<KafkaOptions>['options'] {
  return {
    postfixId: '',
    client: kafkaClientConfig({ ...settings, clientId: `${settings.clientId}-${settings.instanceId}` }),
    consumer: {
      groupId,
      allowAutoTopicCreation: false,
      ...CONSUMER_TIMINGS,
      // A handler error is retried by kafkajs with back-off (0.5 s doubling, at most 10 s apart),
      // and the consumer restarts (rejoins) after 8 retries. The retry count of a consumer only
      // resets on restart, so the cap keeps a later failure from waiting minutes.
      retry: { initialRetryTime: 500, maxRetryTime: 10000, retries: 8, factor: 0.2, multiplier: 2 },
    },
    // This producer only sends replies (matched by correlation id) and dead letters: no order to keep
    // (ordered streams go through the outbox relay's producer), so sends of concurrent handlers overlap.
    producer: { allowAutoTopicCreation: false, createPartitioner: Partitioners.DefaultPartitioner },
    // A group's first start reads what was sent before it existed (a command emitted while the
    // service was still deploying); afterwards committed offsets decide. Consumers are idempotent.
    subscribe: { fromBeginning: options.fromBeginning ?? true },
    run: {
      partitionsConsumedConcurrently:
        options.partitionsConsumedConcurrently ?? DEFAULT_CONSUMER_CONCURRENCY.partitions,
      // Offsets done so far are committed at the end of every batch, on a handler error, and
      // every 5 s during a long batch, so a crash mid-batch replays little.
      autoCommit: true,
      autoCommitInterval: 5000,
    },
    send: { acks: -1 },
  };
}

/**
 * Microservice options for a Kafka server of the suite (`NestFactory.createMicroservice(module,
 * options)` or `app.connectMicroservice(options)`): Nest's Kafka server that handles the messages
 * of a partition concurrently, one at a time per key (KeyOrderedKafkaServer). One server per call.
 */
export function kafkaMicroserviceOptions(
  settings: KafkaSettings,
  groupId: string,
  options: KafkaConsumerOptions = {},
): { strategy: KeyOrderedKafkaServer } {
  const concurrency = resolveConsumerConcurrency(options.concurrency);
  const serverOptions = kafkaServerOptions(settings, groupId, {
    fromBeginning: options.fromBeginning,
    partitionsConsumedConcurrently: concurrency.partitions,
  });
  return {
    strategy: new KeyOrderedKafkaServer(serverOptions, concurrency, {
      restartAfterFatalCrash: options.restartAfterFatalCrash,
      lanes: options.lanes,
    }),
  };
}
