import { Logger } from '@nestjs/common';
import type { KafkaContext } from '@nestjs/microservices';
import type { DataSource } from 'typeorm';
import { MessageEnvelope } from '@swapgw/contracts';
import { isDatabaseUnavailable } from '@swapgw/persistence';
import { runWithRequestContext } from '@swapgw/runtime';
import { publishDeadLetter } from '../dead-letter/dead-letter';
import { requestContextFromHeaders } from '../envelope/message-headers';
import { parseEnvelope, parsePayload } from '../envelope/message-validation';
import { schemaOf } from '../outbox/schema-of';
import { messageSource, StreamHandlers, withHeartbeat } from './message-handlers';

export type ConsumeOutcome = 'applied' | 'duplicate' | 'ignored' | 'dead-lettered';

export interface IdempotentConsumerOptions {
  /**
   * How many times a handler failure that is not a database outage is retried (by redelivery)
   * before the message is parked on the DLQ. Database outages are retried without limit, with
   * kafkajs back-off, since every message would fail the same way until PostgreSQL is back.
   */
  maxAttempts?: number;
}

/**
 * Stream side, called from an `@EventPattern(topic)` handler. Applies each eventId at most once
 * per consumer group: the processed_events row and the handler's writes share one transaction.
 *
 * Nest 11's ServerKafka lets an error thrown by an event handler reach kafkajs, which then does
 * not commit the offset and fetches the message again with back-off (the consumer restarts after
 * its retries run out). That is how a transient failure is redelivered; a poison message is
 * bounded by `maxAttempts` and then parked on `<topic>.dlq` so the partition moves on.
 */
export class IdempotentConsumer {
  private readonly logger = new Logger(IdempotentConsumer.name);
  private readonly attempts = new Map<string, number>();
  private readonly maxAttempts: number;

  constructor(
    private readonly dataSource: DataSource,
    readonly consumerGroup: string,
    options: IdempotentConsumerOptions = {},
  ) {
    this.maxAttempts = options.maxAttempts ?? 3;
  }

  async consume(message: unknown, ctx: KafkaContext, handlers: StreamHandlers): Promise<ConsumeOutcome> {
    const source = messageSource(ctx);
    return runWithRequestContext(requestContextFromHeaders(source.headers), async () => {
      const where = { topic: source.topic, partition: source.partition, offset: source.offset };
      const parsed = parseEnvelope(message);
      if (!parsed.ok) return this.park(ctx, parsed.reason, where);
      const handler = handlers[parsed.envelope.type];
      if (!handler) return this.park(ctx, `no handler for type ${parsed.envelope.type}`, where);
      if ('ignore' in handler) return 'ignored';
      const payload = parsePayload(parsed.envelope, handler.payload);
      if (!payload.ok) return this.park(ctx, payload.reason, where);
      const envelope = payload.envelope as MessageEnvelope<object>;
      this.logger.debug({ msg: 'message received', ...where, type: envelope.type, eventId: envelope.eventId });
      const attemptKey = `${source.topic}:${source.partition}:${source.offset}`;

      try {
        const applied = await withHeartbeat(ctx, () =>
          this.dataSource.transaction(async (manager) => {
            const inserted = (await manager.query(
              `INSERT INTO "${schemaOf(this.dataSource)}"."processed_events" ("consumer_group", "event_id")
               VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING "event_id"`,
              [this.consumerGroup, envelope.eventId],
            )) as unknown[];
            if (inserted.length === 0) return false;
            await handler.handle(envelope.payload, envelope, manager);
            return true;
          }),
        );
        this.attempts.delete(attemptKey);
        if (!applied) this.logger.debug({ msg: 'duplicate event skipped', ...where, eventId: envelope.eventId, type: envelope.type });
        return applied ? 'applied' : 'duplicate';
      } catch (error) {
        const entry = { ...where, eventId: envelope.eventId, type: envelope.type, error: (error as Error)?.message ?? String(error) };
        if (isDatabaseUnavailable(error)) {
          this.logger.warn({ msg: 'database unavailable; message will be redelivered', ...entry });
          throw error;
        }
        const attempt = (this.attempts.get(attemptKey) ?? 0) + 1;
        if (attempt < this.maxAttempts) {
          // Entries of messages that moved to another instance (rebalance) are never cleared one by
          // one; a cap keeps the map bounded, at worst granting such a message a few more attempts.
          if (this.attempts.size >= 10_000) this.attempts.clear();
          this.attempts.set(attemptKey, attempt);
          this.logger.warn({ msg: 'handler failed; message will be redelivered', attempt, maxAttempts: this.maxAttempts, ...entry });
          throw error;
        }
        this.attempts.delete(attemptKey);
        this.logger.error({ msg: 'handler keeps failing; message parked on the dead-letter topic', attempt, ...entry, stack: (error as Error)?.stack });
        return this.park(ctx, `handler failed ${attempt} times: ${entry.error}`, where);
      }
    });
  }

  private async park(ctx: KafkaContext, reason: string, where: Record<string, unknown>): Promise<ConsumeOutcome> {
    this.logger.warn({ msg: 'message parked on the dead-letter topic', reason, ...where });
    // If the DLQ write fails the error propagates: the message is redelivered rather than lost.
    await publishDeadLetter(ctx.getProducer(), messageSource(ctx), reason, this.consumerGroup);
    return 'dead-lettered';
  }
}
