import { Logger } from '@nestjs/common';
import { Kafka, Partitioners, Producer } from 'kafkajs';
import { CodedError, ErrorCode, ErrorCodes, MessageEnvelope } from '@swapgw/contracts';
import { Clock, messagingMetrics, withTimeout } from '@swapgw/runtime';
import { createEnvelope } from '../envelope/create-envelope';
import { contextHeaders, EnvelopeHeaders } from '../envelope/message-headers';
import { kafkaClientConfig, KafkaSettings } from '../kafka/kafka-settings';
import { withSuiteProducers } from '../kafka/traced-producer';

export interface CommandPublisherOptions {
  /**
   * Bound of one send, acknowledgement included. Past it the caller is told the command could not
   * be taken (it may still land: commands are idempotent on their aggregate, so a retry is safe).
   */
  sendTimeoutMs?: number;
  /** Code of the CodedError thrown when Kafka cannot take the command (default MESSAGING_UNAVAILABLE). */
  unavailableAs?: ErrorCode;
}

/**
 * Sends a command straight to Kafka and resolves once every in-sync replica has it (acks all):
 * for a caller that must answer "accepted" only when the command is durable, without a database
 * write of its own (the outbox is for writes that belong with a row). Keyed by the aggregate, so a
 * consumer sees one aggregate's commands in order; concurrent sends are pipelined on one producer.
 */
export class CommandPublisher {
  private readonly logger = new Logger(CommandPublisher.name);
  private readonly producer: Producer;
  private connecting: Promise<void> | null = null;
  private readonly sendTimeoutMs: number;

  constructor(
    settings: KafkaSettings,
    /** Stamps the commands' envelopes. */
    private readonly clock: Clock,
    private readonly options: CommandPublisherOptions = {},
  ) {
    // Bounded retries: a caller is waiting; it is told 503 and retries with its idempotency key.
    const kafka = withSuiteProducers(
      new Kafka(
        kafkaClientConfig(
          { ...settings, clientId: `${settings.clientId}-commands-${settings.instanceId}` },
          { retry: { initialRetryTime: 100, maxRetryTime: 2000, retries: 4, factor: 0.2, multiplier: 2 } },
        ),
      ),
    );
    this.producer = kafka.producer({
      allowAutoTopicCreation: false,
      createPartitioner: Partitioners.DefaultPartitioner,
    });
    this.sendTimeoutMs = options.sendTimeoutMs ?? 5000;
  }

  /** Connects (once; a failed attempt is tried again by the next call or send). */
  connect(): Promise<void> {
    this.connecting ??= this.producer.connect().catch((error: Error) => {
      this.connecting = null;
      throw error;
    });
    return this.connecting;
  }

  async close(): Promise<void> {
    this.connecting = null;
    await this.producer.disconnect().catch(() => undefined);
  }

  /** Sends the command; resolves with its envelope once Kafka acknowledged it, throws CodedError otherwise. */
  async send<P>(topic: string, type: string, aggregateId: string, payload: P): Promise<MessageEnvelope<P>> {
    const envelope = createEnvelope(type, aggregateId, payload, this.clock);
    try {
      await withTimeout(
        (async () => {
          await this.connect();
          await this.producer.send({
            topic,
            acks: -1,
            messages: [
              {
                key: aggregateId,
                value: JSON.stringify(envelope),
                headers: {
                  ...contextHeaders(),
                  [EnvelopeHeaders.eventId]: envelope.eventId,
                  [EnvelopeHeaders.messageType]: type,
                },
              },
            ],
          });
        })(),
        this.sendTimeoutMs,
        `no acknowledgement within ${this.sendTimeoutMs} ms`,
      );
    } catch (error) {
      this.logger.warn({
        msg: 'command not accepted by Kafka',
        topic,
        type,
        aggregateId,
        error: (error as Error).message,
      });
      throw new CodedError(
        this.options.unavailableAs ?? ErrorCodes.MESSAGING_UNAVAILABLE,
        `Kafka did not take the ${type} command`,
        {
          topic,
          type,
        },
      );
    }
    messagingMetrics.produced(topic, type);
    return envelope;
  }
}
