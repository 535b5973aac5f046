import { DynamicModule, INestMicroservice, LoggerService, LogLevel, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { KafkaConsumerOptions, kafkaMicroserviceOptions, KafkaSettings } from '../kafka/kafka-settings';

/**
 * The Nest microservice of `module` consuming Kafka through KeyOrderedKafkaServer
 * (kafkaMicroserviceOptions) as consumer group `groupId`, not listening yet: the one way the
 * services (bootstrapKafkaService) and the integration specs build one. A module that cannot be
 * built (a provider missing, a factory throwing) rejects the promise with Nest's error:
 * `abortOnError: false`, so Nest never calls process.exit itself. A service then logs it and exits;
 * a spec fails alone instead of ending the whole test run.
 */
export function createKafkaMicroservice(
  module: Type<unknown> | DynamicModule,
  settings: KafkaSettings,
  groupId: string,
  options: KafkaConsumerOptions & { logger?: LoggerService | LogLevel[] | false } = {},
): Promise<INestMicroservice> {
  const { logger, ...consumer } = options;
  return NestFactory.createMicroservice(module, {
    ...kafkaMicroserviceOptions(settings, groupId, consumer),
    ...(logger !== undefined ? { logger } : {}),
    abortOnError: false,
  });
}
