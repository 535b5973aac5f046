import { Logger } from '@nestjs/common';
import { KafkaContext } from '@nestjs/microservices';
import type {
  Consumer as NestKafkaConsumer,
  KafkaMessage,
  Producer as NestKafkaProducer,
} from '@nestjs/microservices/external/kafka.interface';
import { Consumer, Kafka, Producer } from 'kafkajs';
import { kafkaServerOptions, KafkaSettings } from '../kafka/kafka-settings';
import { withSuiteProducers } from '../kafka/traced-producer';
import { ConsumerLagSampler } from '../metrics/consumer-lag-sampler';

/** Back-off between attempts to start the consumer when Kafka is away at boot. */
const START_RETRY_MS = 5_000;

export interface StandaloneGroupConsumerOptions {
  settings: KafkaSettings;
  /** The consumer group: its own offsets, lag and replay, apart from the app's Nest Kafka server. */
  groupId: string;
  /** Suffix of the Kafka client id (logs, broker metrics). */
  clientIdSuffix: string;
  topics: readonly string[];
  /**
   * Handles one message (its value parsed as Nest's Kafka parser would, and a KafkaContext), e.g.
   * through IdempotentConsumer. The offset is committed only once it resolved; a rejection makes
   * kafkajs fetch the message again.
   */
  handle(topic: string, value: unknown, ctx: KafkaContext): Promise<unknown>;
}

/**
 * A consumer group of its own inside an app that already runs a Nest Kafka server, for a feature
 * whose events must be consumed apart from the app's other handlers (its own offsets, lag and
 * replay; switched off or scaled alone). Nest routes every @EventPattern of an app to every Kafka
 * server it runs, so a second Nest server would also run the app's other handlers: this is kafkajs
 * directly, kept here with the rest of the Kafka client code. One message at a time per partition
 * (partitions concurrently, as configured for the app's servers), committed after its handler.
 * Started in the background: a Kafka that is away at boot is retried every few seconds.
 */
export class StandaloneGroupConsumer {
  private readonly logger = new Logger(StandaloneGroupConsumer.name);
  private consumer?: Consumer;
  private producer?: Producer;
  private lagSampler?: ConsumerLagSampler;
  private retryTimer?: NodeJS.Timeout;
  private stopping = false;

  constructor(private readonly options: StandaloneGroupConsumerOptions) {}

  /** Starts in the background; never rejects. */
  start(): void {
    void this.run();
  }

  async stop(): Promise<void> {
    this.stopping = true;
    clearTimeout(this.retryTimer);
    await Promise.allSettled([
      this.consumer?.disconnect(),
      this.producer?.disconnect(),
      this.lagSampler?.stop(),
    ]);
  }

  private async run(): Promise<void> {
    const { settings, groupId, topics } = this.options;
    const options = kafkaServerOptions(
      { ...settings, clientId: `${settings.clientId}-${this.options.clientIdSuffix}` },
      groupId,
    );
    const kafka = withSuiteProducers(new Kafka(options.client as ConstructorParameters<typeof Kafka>[0]));
    const consumer = kafka.consumer(options.consumer as Parameters<Kafka['consumer']>[0]);
    const producer = kafka.producer(options.producer as Parameters<Kafka['producer']>[0]);
    this.consumer = consumer;
    this.producer = producer;
    // stop() may come while this is still connecting: each step checks, and leaves nothing running.
    const stopped = async (): Promise<boolean> => {
      if (!this.stopping) return false;
      await Promise.allSettled([consumer.disconnect(), producer.disconnect()]);
      return true;
    };
    try {
      await producer.connect();
      await consumer.connect();
      if (await stopped()) return;
      await consumer.subscribe({
        topics: [...topics],
        fromBeginning: options.subscribe?.fromBeginning ?? true,
      });
      if (await stopped()) return;
      await consumer.run({
        partitionsConsumedConcurrently: options.run?.partitionsConsumedConcurrently,
        // kafkajs commits a message's offset only after this resolves (and not when it throws).
        eachMessage: async ({ topic, partition, message, heartbeat }) => {
          // The producer is the one the dead-letter publisher uses (IdempotentConsumer parks on it).
          const ctx = new KafkaContext([
            message as unknown as KafkaMessage,
            partition,
            topic,
            consumer as unknown as NestKafkaConsumer,
            heartbeat,
            producer as unknown as NestKafkaProducer,
          ]);
          await this.options.handle(topic, parseValue(message.value), ctx);
        },
      });
      if (await stopped()) return;
      this.lagSampler = new ConsumerLagSampler(settings, [groupId]);
      this.lagSampler.start();
      this.logger.log({ msg: 'consumer group running', group: groupId, topics });
    } catch (error) {
      await Promise.allSettled([consumer.disconnect(), producer.disconnect()]);
      if (this.stopping) return;
      this.logger.error({
        msg: 'consumer group could not start; retrying',
        group: groupId,
        error: (error as Error).message,
        retryInMs: START_RETRY_MS,
      });
      this.retryTimer = setTimeout(() => void this.run(), START_RETRY_MS);
      this.retryTimer.unref();
    }
  }
}

/** The message value as Nest's Kafka parser would hand it to a handler: JSON when it is JSON. */
function parseValue(value: Buffer | null): unknown {
  if (value === null) return null;
  const text = value.toString();
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
