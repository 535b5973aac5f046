import { Logger } from '@nestjs/common';
import type { KafkaContext } from '@nestjs/microservices';
import type { DataSource } from 'typeorm';
import { MessageEnvelope } from '@swapgw/contracts';
import { isDatabaseUnavailable, sqlLiteral, transactionStartingWith } from '@swapgw/persistence';
import { Clock, messagingMetrics } from '@swapgw/runtime';
import { runInMessageContext } from '../envelope/message-headers';
import { parseEnvelope, parsePayload } from '../envelope/message-validation';
import { schemaOf } from '../outbox/schema-of';
import {
  EventClaim,
  handledTypeOf,
  messageSource,
  parkOnDeadLetterTopic,
  StreamHandler,
  StreamHandlers,
  withHeartbeat,
} from './message-handlers';

export type ConsumeOutcome = 'applied' | 'duplicate' | 'ignored' | 'dead-lettered';

export interface IdempotentConsumerOptions {
  /**
   * How many times a handler failure that is not a database outage is tried before the message is
   * parked on the DLQ (retried in place, with a short back-off). Database outages are not counted.
   */
  maxAttempts?: number;
  /** First pause between two attempts of a failing handler, doubled each time. */
  retryDelayMs?: number;
}

/**
 * Stream side, called from an `@TopicEvents(topic)` handler. Applies each eventId at most once
 * per consumer group: the processed_events row and the handler's writes share one transaction.
 *
 * Failures. A database outage is rethrown: Nest 11's ServerKafka lets an error thrown by an event
 * handler reach kafkajs, which does not commit the offset and fetches the message again with
 * back-off (the consumer restarts after its retries run out), until PostgreSQL is back. Any other
 * handler error is retried here, in place, `maxAttempts` times, then the message is parked on
 * `<topic>.dlq` so that a poison message never blocks its partition. Retrying in place rather than
 * by redelivery matters because kafkajs counts retries per consumer lifetime, so back-off from
 * unrelated earlier failures would otherwise delay the parking by tens of seconds.
 */
export class IdempotentConsumer {
  private readonly logger = new Logger(IdempotentConsumer.name);
  private readonly maxAttempts: number;
  private readonly retryDelayMs: number;

  constructor(
    private readonly dataSource: DataSource,
    readonly consumerGroup: string,
    /** Stamps what is parked on the DLQ. */
    private readonly clock: Clock,
    options: IdempotentConsumerOptions = {},
  ) {
    this.maxAttempts = options.maxAttempts ?? 3;
    this.retryDelayMs = options.retryDelayMs ?? 200;
  }

  async consume(message: unknown, ctx: KafkaContext, handlers: StreamHandlers): Promise<ConsumeOutcome> {
    const source = messageSource(ctx);
    messagingMetrics.consumed(source.topic, handledTypeOf(message, handlers));
    return runInMessageContext(source, async () => {
      const where = { topic: source.topic, partition: source.partition, offset: source.offset };
      const parsed = parseEnvelope(message);
      if (!parsed.ok) return this.park(ctx, parsed.reason, where);
      const handler = handlers[parsed.envelope.type];
      if (!handler) return this.park(ctx, `no handler for type ${parsed.envelope.type}`, where);
      if ('ignore' in handler) return 'ignored';
      const payload = parsePayload(parsed.envelope, handler.payload);
      if (!payload.ok) return this.park(ctx, payload.reason, where);
      const envelope = payload.envelope as MessageEnvelope<object>;
      this.logger.debug({
        msg: 'message received',
        ...where,
        type: envelope.type,
        eventId: envelope.eventId,
      });

      for (let attempt = 1; ; attempt++) {
        try {
          if (handler.wanted && !(await handler.wanted(envelope.payload, envelope))) return 'ignored';
          const applied = await withHeartbeat(
            ctx,
            async () =>
              (handler.applyAtOnce !== undefined &&
                (await handler.applyAtOnce(envelope.payload, envelope, this.claimOf(envelope)))) ||
              this.applyOnce(envelope, handler),
          );
          if (!applied)
            this.logger.debug({
              msg: 'duplicate event skipped',
              ...where,
              eventId: envelope.eventId,
              type: envelope.type,
            });
          return applied ? 'applied' : 'duplicate';
        } catch (error) {
          const entry = {
            ...where,
            eventId: envelope.eventId,
            type: envelope.type,
            error: (error as Error)?.message ?? String(error),
          };
          if (isDatabaseUnavailable(error)) {
            this.logger.warn({ msg: 'database unavailable; message will be redelivered', ...entry });
            throw error;
          }
          if (attempt >= this.maxAttempts) {
            this.logger.error({
              msg: 'handler keeps failing; message parked on the dead-letter topic',
              attempt,
              ...entry,
              stack: (error as Error)?.stack,
            });
            return this.park(ctx, `handler failed ${attempt} times: ${entry.error}`, where);
          }
          this.logger.warn({
            msg: 'handler failed; retrying',
            attempt,
            maxAttempts: this.maxAttempts,
            ...entry,
          });
          await withHeartbeat(
            ctx,
            () => new Promise((r) => setTimeout(r, this.retryDelayMs * 2 ** (attempt - 1))),
          );
        }
      }
    });
  }

  /**
   * One transaction: claim the eventId for this group, then apply; false when already applied.
   * The claim, and the handler's first read if it has one, go to PostgreSQL in the same message as
   * START TRANSACTION (one round trip).
   */
  private applyOnce<P extends object>(
    envelope: MessageEnvelope<P>,
    handler: Pick<StreamHandler<P>, 'handle' | 'readFirst'>,
  ): Promise<boolean> {
    const claim = this.claimOf(envelope).statement;
    const read = handler.readFirst?.(envelope.payload, this.dataSource);
    return transactionStartingWith(
      this.dataSource,
      read === undefined ? claim : `${claim}; ${read}`,
      async (claimed, manager, [firstRead]) => {
        if (claimed.length === 0) return false;
        await handler.handle(envelope.payload, envelope, manager, firstRead);
        return true;
      },
    );
  }

  private claimOf(envelope: MessageEnvelope<object>): ProcessedEventClaim {
    return new ProcessedEventClaim(schemaOf(this.dataSource), this.consumerGroup, envelope.eventId);
  }

  private async park(
    ctx: KafkaContext,
    reason: string,
    where: Record<string, unknown>,
  ): Promise<ConsumeOutcome> {
    this.logger.warn({ msg: 'message parked on the dead-letter topic', reason, ...where });
    // If the DLQ write fails the error propagates: the message is redelivered rather than lost.
    await parkOnDeadLetterTopic(ctx, reason, this.consumerGroup, this.clock.nowMs());
    return 'dead-lettered';
  }
}

/**
 * `consumerGroup`'s processed_events row for `eventId` in `schema`: the one place that writes its
 * SQL, both as a statement of its own (the transactional path) and as the parts of a handler's
 * fast-path statement (`StreamHandler.applyAtOnce`).
 */
export class ProcessedEventClaim implements EventClaim {
  private readonly table: string;

  constructor(
    schema: string,
    private readonly consumerGroup: string,
    private readonly eventId: string,
  ) {
    this.table = `"${schema}"."processed_events"`;
  }

  /**
   * The claim alone, returning the row when this group had not applied the event. Its values are
   * inlined: it is sent in one message with START TRANSACTION, which takes no parameters.
   */
  get statement(): string {
    return (
      `INSERT INTO ${this.table} ("consumer_group", "event_id") ` +
      `VALUES (${sqlLiteral(this.consumerGroup)}, ${sqlLiteral(this.eventId)}) ON CONFLICT DO NOTHING RETURNING "event_id"`
    );
  }

  notClaimed(parameters: unknown[]): string {
    const [group, event] = this.push(parameters);
    return `NOT EXISTS (SELECT 1 FROM ${this.table} WHERE "consumer_group" = $${group} AND "event_id" = $${event}::uuid)`;
  }

  claimFor(source: string, parameters: unknown[]): string {
    const [group, event] = this.push(parameters);
    return `INSERT INTO ${this.table} ("consumer_group", "event_id") SELECT $${group}::text, $${event}::uuid FROM "${source}"`;
  }

  private push(parameters: unknown[]): [number, number] {
    parameters.push(this.consumerGroup, this.eventId);
    return [parameters.length - 1, parameters.length];
  }
}
