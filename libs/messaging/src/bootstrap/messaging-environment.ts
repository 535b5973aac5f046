import {
  IsBoolean,
  IsInt,
  IsOptional,
  IsString,
  Max,
  Min,
  Validate,
  ValidationArguments,
  ValidatorConstraint,
  ValidatorConstraintInterface,
} from 'class-validator';
import { Transform } from 'class-transformer';
import { ServiceEnvironment, toBooleanFlag } from '@swapgw/runtime';
import { ConsumerConcurrency } from '../kafka/consumer-concurrency';
import { KafkaSecurity, kafkaSecurityFrom, KafkaSecurityVariables } from '../kafka/kafka-security';
import { KafkaSettings, parseBrokers } from '../kafka/kafka-settings';
import {
  MESSAGING_RETENTION_BOUNDS,
  MessagingRetentionSettings,
} from '../outbox/messaging-retention-settings';

/** The Kafka security variables taken together: files readable, nothing missing or contradictory. */
@ValidatorConstraint({ name: 'kafkaSecurity' })
class KafkaSecurityConsistent implements ValidatorConstraintInterface {
  private problem = '';
  validate(_value: unknown, args: ValidationArguments): boolean {
    try {
      kafkaSecurityFrom(args.object as KafkaSecurityVariables);
      return true;
    } catch (error) {
      this.problem = (error as Error).message;
      return false;
    }
  }
  defaultMessage(): string {
    return this.problem;
  }
}

/**
 * The variables of every app that keeps the messaging tables (outbox, processed_events) in its
 * schema: how long the retention purge keeps their rows (MessagingRetentionPurge). The gateway's
 * config class extends it; the Kafka services' through KafkaServiceEnvironment.
 */
export abstract class MessagingEnvironment extends ServiceEnvironment implements KafkaSecurityVariables {
  /**
   * Kafka's `security.protocol`; the other KAFKA_SSL_* / KAFKA_SASL_* variables: kafka-security.ts.
   * Validated together with them (also when unset: a stray TLS or SASL variable is an error).
   */
  @Validate(KafkaSecurityConsistent)
  KAFKA_SECURITY_PROTOCOL?: string;

  @IsOptional()
  @IsString()
  KAFKA_SSL_CA_FILE?: string;

  @IsOptional()
  @IsString()
  KAFKA_SSL_CERT_FILE?: string;

  @IsOptional()
  @IsString()
  KAFKA_SSL_KEY_FILE?: string;

  @IsOptional()
  @IsString()
  KAFKA_SSL_KEY_PASSWORD?: string;

  @IsOptional()
  @IsString()
  KAFKA_SSL_KEY_PASSWORD_FILE?: string;

  @IsOptional()
  @IsString()
  KAFKA_SASL_MECHANISM?: string;

  @IsOptional()
  @IsString()
  KAFKA_SASL_USERNAME?: string;

  @IsOptional()
  @IsString()
  KAFKA_SASL_USERNAME_FILE?: string;

  @IsOptional()
  @IsString()
  KAFKA_SASL_PASSWORD?: string;

  @IsOptional()
  @IsString()
  KAFKA_SASL_PASSWORD_FILE?: string;

  /**
   * false: the apps create no Kafka topic and change no partition count (Strimzi's Topic Operator or
   * another tool owns them); at start they check that their topics exist and name the missing ones.
   */
  @Transform(toBooleanFlag, { toClassOnly: true })
  @IsBoolean({ message: 'KAFKA_MANAGE_TOPICS must be true or false' })
  KAFKA_MANAGE_TOPICS: boolean = true;

  private kafkaSecurityRead?: KafkaSecurity;

  /** The Kafka clients' TLS and SASL, files read once. */
  get kafkaSecurity(): KafkaSecurity {
    this.kafkaSecurityRead ??= kafkaSecurityFrom(this);
    return this.kafkaSecurityRead;
  }

  /** Published outbox rows are deleted this long after publication. */
  @IsInt()
  @Min(MESSAGING_RETENTION_BOUNDS.outboxRetentionHours.min)
  @Max(MESSAGING_RETENTION_BOUNDS.outboxRetentionHours.max)
  OUTBOX_RETENTION_HOURS: number = MESSAGING_RETENTION_BOUNDS.outboxRetentionHours.default;

  /**
   * processed_events rows are deleted this long after their event was applied. A correctness
   * bound: it must exceed how long Kafka may still redeliver an event (the stream topics'
   * retention.ms plus segment.ms, 7 + 7 days by default), or a redelivery is applied twice. See
   * MESSAGING_RETENTION_BOUNDS.
   */
  @IsInt()
  @Min(MESSAGING_RETENTION_BOUNDS.processedEventsRetentionHours.min)
  @Max(MESSAGING_RETENTION_BOUNDS.processedEventsRetentionHours.max)
  PROCESSED_EVENTS_RETENTION_HOURS: number = MESSAGING_RETENTION_BOUNDS.processedEventsRetentionHours.default;

  /**
   * Caps on concurrent message handling of this app's consumers (ConsumerConcurrency), for
   * operators to tune a deployment without a release; what the app's code asks for wins, unset ones
   * take the defaults.
   */
  @IsOptional()
  @IsInt()
  @Min(1)
  KAFKA_CONSUMER_PARTITIONS_CONCURRENTLY?: number;

  @IsOptional()
  @IsInt()
  @Min(1)
  KAFKA_CONSUMER_MAX_IN_FLIGHT_PER_PARTITION?: number;

  @IsOptional()
  @IsInt()
  @Min(1)
  KAFKA_CONSUMER_MAX_IN_FLIGHT?: number;
}

/** The Kafka settings of an app's validated config; `clientId` is the app's name. */
export function kafkaSettingsOf(config: MessagingEnvironment, clientId: string): KafkaSettings {
  return {
    brokers: parseBrokers(config.KAFKA_BROKERS),
    clientId,
    instanceId: config.INSTANCE_ID,
    security: config.kafkaSecurity,
    manageTopics: config.KAFKA_MANAGE_TOPICS,
    logLevel: config.LOG_LEVEL,
  };
}

/** The messaging tables' retention of an app's validated config. */
export function messagingRetentionOf(config: MessagingEnvironment): MessagingRetentionSettings {
  return {
    outboxRetentionHours: config.OUTBOX_RETENTION_HOURS,
    processedEventsRetentionHours: config.PROCESSED_EVENTS_RETENTION_HOURS,
  };
}

/** The consumer caps the config sets (KAFKA_CONSUMER_*); the others are left to the code and defaults. */
export function consumerConcurrencyOf(config: MessagingEnvironment): Partial<ConsumerConcurrency> {
  return definedOnly({
    partitions: config.KAFKA_CONSUMER_PARTITIONS_CONCURRENTLY,
    perPartition: config.KAFKA_CONSUMER_MAX_IN_FLIGHT_PER_PARTITION,
    perProcess: config.KAFKA_CONSUMER_MAX_IN_FLIGHT,
  });
}

/** The properties that have a value (so that spreading it does not unset another source's). */
export function definedOnly<T extends object>(values: T): Partial<T> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)) as Partial<T>;
}
