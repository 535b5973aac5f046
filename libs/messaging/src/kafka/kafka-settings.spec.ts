import { ServerKafka } from '@nestjs/microservices';
import { logLevel } from 'kafkajs';
import { KeyOrderedKafkaServer } from './key-ordered-kafka-server';
import {
  kafkaClientConfig,
  kafkajsLogMethod,
  kafkaMicroserviceOptions,
  kafkaServerOptions,
  kafkaSettingsFromEnv,
  parseBrokers,
  parseManageTopics,
  sanitizeInstanceId,
} from './kafka-settings';

describe('kafka settings', () => {
  it('reads KAFKA_BROKERS as a comma-separated list, 127.0.0.1:9092 by default', () => {
    expect(
      kafkaSettingsFromEnv('gateway', { KAFKA_BROKERS: 'k1:9092, k2:9093', INSTANCE_ID: 'gw-1' }),
    ).toEqual({
      brokers: ['k1:9092', 'k2:9093'],
      clientId: 'gateway',
      instanceId: 'gw-1',
      security: { protocol: 'PLAINTEXT', files: {} },
      manageTopics: true,
    });
    expect(kafkaSettingsFromEnv('gateway', {}).brokers).toEqual(['127.0.0.1:9092']);
    expect(kafkaSettingsFromEnv('gateway', {}).instanceId).toMatch(/-\d+$/);
  });

  it('reads KAFKA_MANAGE_TOPICS (default true) and refuses what is not a boolean', () => {
    expect(kafkaSettingsFromEnv('gateway', { KAFKA_MANAGE_TOPICS: 'false' }).manageTopics).toBe(false);
    expect(parseManageTopics('0')).toBe(false);
    expect(parseManageTopics('TRUE')).toBe(true);
    expect(() => parseManageTopics('no')).toThrow(/KAFKA_MANAGE_TOPICS must be true or false/);
  });

  it('gives kafkajs the TLS and SASL of the settings', () => {
    const settings = kafkaSettingsFromEnv('gateway', {
      KAFKA_SECURITY_PROTOCOL: 'SASL_SSL',
      KAFKA_SASL_MECHANISM: 'PLAIN',
      KAFKA_SASL_USERNAME: 'u',
      KAFKA_SASL_PASSWORD: 'p',
    });
    expect(kafkaClientConfig(settings)).toMatchObject({
      ssl: { rejectUnauthorized: true },
      sasl: { mechanism: 'plain', username: 'u', password: 'p' },
    });
    expect(kafkaClientConfig(kafkaSettingsFromEnv('gateway', {}))).not.toHaveProperty('sasl');
  });

  it('refuses brokers that are not host:port', () => {
    expect(() => parseBrokers('localhost')).toThrow(/host:port/);
    expect(() => parseBrokers(' , ')).toThrow(/no broker/);
  });

  it('makes instance ids safe for Kafka group ids', () => {
    expect(sanitizeInstanceId('pod/gateway 7:1')).toBe('pod-gateway-7-1');
  });

  it('keeps the group id as given, never auto-creates topics, and heartbeats within the session', () => {
    const options = kafkaServerOptions(
      { brokers: ['k:9092'], clientId: 'quote-service', instanceId: 'i1' },
      'quote-service',
    );
    expect(options.postfixId).toBe('');
    expect(options.consumer).toMatchObject({ groupId: 'quote-service', allowAutoTopicCreation: false });
    const consumer = options.consumer!;
    expect(consumer.heartbeatInterval! * 3).toBeLessThanOrEqual(consumer.sessionTimeout!);
    // kafkajs heartbeats between fetches: an idle member must hear of a rebalance within a beat.
    expect(consumer.maxWaitTimeInMs).toBeLessThanOrEqual(consumer.heartbeatInterval!);
    expect(options.producer?.allowAutoTopicCreation).toBe(false);
    expect(options.client?.brokers).toEqual(['k:9092']);
    expect(options.run).toMatchObject({ autoCommit: true, partitionsConsumedConcurrently: 4 });
  });

  it('runs every app on the key-ordered Kafka server, a new one per call', () => {
    const settings = { brokers: ['k:9092'], clientId: 'gateway', instanceId: 'i1' };
    const { strategy } = kafkaMicroserviceOptions(settings, 'gateway', { concurrency: { partitions: 12 } });
    expect(strategy).toBeInstanceOf(KeyOrderedKafkaServer);
    expect(strategy).toBeInstanceOf(ServerKafka); // Nest's routing, replies and unwrap() unchanged
    expect(kafkaMicroserviceOptions(settings, 'gateway').strategy).not.toBe(strategy);
  });

  it("logs a broker's transient answers (a coordinator loading, a leadership election) as warnings, other errors as errors", () => {
    const response = (error: string) => ({
      message: 'Response GroupCoordinator(key: 10, version: 2)',
      error,
    });
    expect(kafkajsLogMethod(logLevel.ERROR, response('The group coordinator is not available'))).toBe('warn');
    expect(
      kafkajsLogMethod(
        logLevel.ERROR,
        response("The coordinator is loading and hence can't process requests for this group"),
      ),
    ).toBe('warn');
    expect(
      kafkajsLogMethod(
        logLevel.ERROR,
        response('Not authorized to access group: Group authorization failed.'),
      ),
    ).toBe('error');
    expect(kafkajsLogMethod(logLevel.ERROR, { message: 'Crash: KafkaJSNumberOfRetriesExceeded' })).toBe(
      'error',
    );
    // A consumer crashed by a transient answer is restarted by kafkajs: a warning, as the answer is.
    expect(
      kafkajsLogMethod(logLevel.ERROR, {
        message:
          "Crash: KafkaJSProtocolError: The coordinator is loading and hence can't process requests for this group",
      }),
    ).toBe('warn');
    expect(
      kafkajsLogMethod(logLevel.ERROR, {
        message: 'Crash: KafkaJSProtocolError: Not authorized to access group: Group authorization failed.',
      }),
    ).toBe('error');
    expect(
      kafkajsLogMethod(logLevel.ERROR, {
        message: 'Crash: KafkaJSNumberOfRetriesExceeded: The group coordinator is not available',
      }),
    ).toBe('error');
    expect(kafkajsLogMethod(logLevel.INFO, { message: 'Starting' })).toBe('log');
  });
});
