import { AsyncLocalStorage } from 'node:async_hooks';
import { Logger } from '@nestjs/common';
import { KafkaOptions, ServerKafka, WritePacket } from '@nestjs/microservices';
import type { Consumer, EachBatchPayload, EachMessagePayload, KafkaMessage } from '@nestjs/microservices/external/kafka.interface';
import type { Observable, Subscription } from 'rxjs';
import { InFlightLimit } from '../consumer/in-flight-limit';
import { BatchOutcome, KeyOrderedBatch, MessageKey } from '../consumer/key-ordered-batch';
import { ConsumerConcurrency } from './consumer-concurrency';

/** kafkajs only sends a heartbeat when its heartbeatInterval has passed, so asking often is cheap. */
const KEEP_ALIVE_EVERY_MS = 1000;

/** Keys are compared byte for byte: latin1 maps each byte to one character. */
const keyOf = (message: KafkaMessage): MessageKey => (message.key == null ? null : message.key.toString('latin1'));

/**
 * Nest's Kafka server, but each fetched batch is worked on concurrently with per-key order (see
 * KeyOrderedBatch) instead of one message at a time per partition. Nest's own message handling
 * (deserializing, routing to @MessagePattern / @EventPattern, replies) is reused unchanged.
 *
 * Offsets: a message counts as done when its handler resolved and, for a @MessagePattern, its reply
 * was produced (Nest does not await that send). Only the contiguous prefix of done messages is
 * resolved, and kafkajs commits resolved offsets (autoCommit) during and after the batch.
 *
 * A handler error keeps Nest 11's semantics (it reaches kafkajs, which does not commit past it and
 * fetches again with back-off): no new message is started, the running ones are awaited, the done
 * prefix is resolved, then the error is rethrown so that the failed message comes again.
 */
export class KeyOrderedKafkaServer extends ServerKafka {
  private readonly batchLogger = new Logger(KeyOrderedKafkaServer.name);
  private readonly processLimit: InFlightLimit;
  /** Replies being produced for the message whose handler runs in this async context. */
  private readonly pendingReplies = new AsyncLocalStorage<Array<Promise<void>>>();

  constructor(
    options: Required<KafkaOptions>['options'],
    private readonly limits: Pick<ConsumerConcurrency, 'perPartition' | 'perProcess'>,
  ) {
    super(options);
    this.processLimit = new InFlightLimit(limits.perProcess);
  }

  /**
   * Subscribes to the handlers' topics and runs the consumer with `eachBatch`. Also called again by
   * bootstrapKafkaService after a fatal consumer crash, on the same consumer.
   */
  override async bindEvents(consumer: Consumer): Promise<void> {
    const topics = [...this.messageHandlers.keys()];
    if (topics.length > 0) await consumer.subscribe({ ...this.options.subscribe, topics });
    await consumer.run({
      // partitionsConsumedConcurrently, autoCommit, autoCommitInterval (kafkaServerOptions)
      ...this.options.run,
      // Offsets are resolved here, message by message, never by kafkajs at the end of a batch.
      eachBatchAutoResolve: false,
      eachBatch: (payload) => this.handleBatch(payload),
    });
  }

  /** Nest's handling of one message, plus the wait for its reply (if any) to be produced. */
  override async handleMessage(payload: EachMessagePayload): Promise<void> {
    const replies: Array<Promise<void>> = [];
    await this.pendingReplies.run(replies, () => super.handleMessage(payload));
    await Promise.all(replies);
  }

  /**
   * Nest produces a @MessagePattern's reply from here without awaiting it. The send is tracked so
   * that the request's offset is only committed once its answer is on the reply topic; a failed
   * send fails the message (redelivered, answered again) instead of an unhandled rejection.
   */
  override send(stream$: Observable<unknown>, respond: (data: WritePacket) => Promise<unknown> | void): Subscription {
    const replies = this.pendingReplies.getStore();
    if (!replies) return super.send(stream$, respond);
    let settle!: { resolve: () => void; reject: (error: unknown) => void };
    const produced = new Promise<void>((resolve, reject) => (settle = { resolve, reject }));
    produced.catch(() => undefined); // awaited by handleMessage; never unhandled
    replies.push(produced);
    return super.send(stream$, async (packet) => {
      try {
        await respond(packet);
        if (packet.isDisposed) settle.resolve(); // the last packet of the reply stream
      } catch (error) {
        settle.reject(error);
      }
    });
  }

  private async handleBatch(payload: EachBatchPayload): Promise<void> {
    const { batch, resolveOffset, heartbeat, pause, isRunning, isStale, commitOffsetsIfNecessary } = payload;
    const { topic, partition } = batch;
    // An object, not two lets: they are set from callbacks, which TypeScript's narrowing ignores.
    const liveness = { beating: false, failure: null as { error: unknown } | null };
    // Long batches must not look like a dead member: heartbeat (and commit the done prefix when
    // autoCommitInterval says so) while messages are handled. A failed heartbeat usually means a
    // rebalance: stop taking new messages, the partition may already belong to someone else.
    const keepAlive = () => {
      if (liveness.beating || liveness.failure) return;
      liveness.beating = true;
      heartbeat()
        .then(
          () => commitOffsetsIfNecessary().catch(() => undefined), // retried by the commit at the end of the batch
          (error: unknown) => (liveness.failure = { error }),
        )
        .finally(() => (liveness.beating = false));
    };
    const timer = setInterval(keepAlive, KEEP_ALIVE_EVERY_MS);

    const messages = batch.messages.map((message) => ({ key: keyOf(message), offset: message.offset, message }));
    let outcome: BatchOutcome;
    try {
      outcome = await new KeyOrderedBatch(messages, { perPartition: this.limits.perPartition, process: this.processLimit }).run(
        ({ message }) => this.handleMessage({ topic, partition, message, heartbeat, pause }),
        {
          shouldContinue: () => !liveness.failure && isRunning() && !isStale(),
          onCommittable: (offset) => resolveOffset(offset),
          onSettled: keepAlive,
        },
      );
    } finally {
      clearInterval(timer);
    }

    if (outcome.status === 'failed') {
      this.batchLogger.warn({
        msg: 'message handler failed; batch stopped, redelivery from the first unfinished offset',
        topic,
        partition,
        failedOffset: outcome.failedOffset,
        committableOffset: outcome.committableOffset ?? null,
        error: (outcome.error as Error)?.message ?? String(outcome.error),
      });
      throw outcome.error;
    }
    if (liveness.failure) throw liveness.failure.error; // kafkajs rejoins the group on a rebalance error
  }
}
