import { Logger } from '@nestjs/common';
import type { KafkaContext } from '@nestjs/microservices';
import { ErrorCodes, ReplyEnvelope, replyError, replyOk, replyTopicOf } from '@swapgw/contracts';
import { Clock, messagingMetrics } from '@swapgw/runtime';
import { runInMessageContext } from '../envelope/message-headers';
import { parseEnvelope, parsePayload } from '../envelope/message-validation';
import {
  handledTypeOf,
  messageSource,
  parkOnDeadLetterTopic,
  RequestHandlers,
  withHeartbeat,
} from '../consumer/message-handlers';
import { isUnexpectedError, replyErrorOf } from './reply-errors';

export interface RequestResponderOptions {
  /**
   * A request older than this (by its envelope's occurredAtMs) is answered SERVICE_UNAVAILABLE
   * without running the handler. Longer than any requester timeout, plus clock skew.
   */
  staleAfterMs?: number;
}

export const DEFAULT_STALE_AFTER_MS = 120_000;

/**
 * Responder side of request-reply, called from a `@MessagePattern(topic)` handler. It never throws:
 * every outcome is a ReplyEnvelope, so the requester always gets an answer rather than a timeout.
 * Provided by MessagingModule (scoped to the app's consumer group, named in DLQ headers).
 */
export class RequestResponder {
  private readonly logger = new Logger(RequestResponder.name);

  constructor(
    private readonly consumerGroup: string,
    /** Judges a request's age (staleAfterMs) and stamps what is parked on the DLQ. */
    private readonly clock: Clock,
    private readonly options: RequestResponderOptions = {},
  ) {}

  async respond(
    message: unknown,
    ctx: KafkaContext,
    handlers: RequestHandlers,
  ): Promise<ReplyEnvelope<unknown>> {
    const source = messageSource(ctx);
    const type = handledTypeOf(message, handlers);
    messagingMetrics.consumed(source.topic, type);
    const reply = await this.answer(message, ctx, handlers, source);
    // Nest's ServerKafka produces what respond returns on the reply topic (respond never throws).
    messagingMetrics.produced(replyTopicOf(source.topic), type);
    return reply;
  }

  private answer(
    message: unknown,
    ctx: KafkaContext,
    handlers: RequestHandlers,
    source: ReturnType<typeof messageSource>,
  ): Promise<ReplyEnvelope<unknown>> {
    return runInMessageContext(source, async () => {
      const where = { topic: source.topic, partition: source.partition, offset: source.offset };
      const parsed = parseEnvelope(message);
      if (!parsed.ok) return this.reject(ctx, parsed.reason, { problems: parsed.problems }, where);
      const envelope = parsed.envelope;
      const handler = handlers[envelope.type];
      if (!handler)
        return this.reject(ctx, `no handler for type ${envelope.type}`, { type: envelope.type }, where);
      const payload = parsePayload(envelope, handler.payload);
      if (!payload.ok) return this.reject(ctx, payload.reason, { problems: payload.problems }, where);
      const ageMs = this.clock.nowMs() - envelope.occurredAtMs;
      const staleAfterMs = this.options.staleAfterMs ?? DEFAULT_STALE_AFTER_MS;
      if (ageMs > staleAfterMs) {
        // Its requester gave up long ago (a backlog after an outage, or a new group reading old
        // requests): doing the work now would only cause side effects nobody waits for.
        this.logger.warn({
          msg: 'stale request skipped',
          ...where,
          type: envelope.type,
          eventId: envelope.eventId,
          ageMs,
        });
        return replyError(
          ErrorCodes.SERVICE_UNAVAILABLE,
          `Request ${envelope.type} expired before it was handled`,
          { ageMs },
        );
      }
      this.logger.debug({
        msg: 'request received',
        ...where,
        type: envelope.type,
        eventId: envelope.eventId,
      });

      try {
        const data = await withHeartbeat(ctx, async () =>
          handler.handle(payload.envelope.payload, payload.envelope),
        );
        return replyOk(data);
      } catch (error) {
        const reply = replyErrorOf(error);
        const entry = {
          ...where,
          type: envelope.type,
          eventId: envelope.eventId,
          code: (reply as { error: { code: string } }).error.code,
        };
        if (isUnexpectedError(error))
          this.logger.error({
            msg: 'request handler failed',
            ...entry,
            error: (error as Error)?.stack ?? String(error),
          });
        else
          this.logger.warn({
            msg: 'request answered with an error',
            ...entry,
            reason: (error as Error)?.message,
          });
        return reply;
      }
    });
  }

  /** An invalid request is answered (the caller is waiting) and parked on the DLQ for inspection. */
  private async reject(
    ctx: KafkaContext,
    reason: string,
    details: Record<string, unknown>,
    where: Record<string, unknown>,
  ): Promise<ReplyEnvelope<never>> {
    this.logger.warn({ msg: 'invalid request parked on the dead-letter topic', reason, ...where });
    try {
      await parkOnDeadLetterTopic(ctx, reason, this.consumerGroup, this.clock.nowMs());
    } catch (error) {
      this.logger.error({
        msg: 'could not publish to the dead-letter topic',
        reason,
        ...where,
        error: (error as Error).message,
      });
    }
    return replyError(ErrorCodes.VALIDATION_FAILED, reason, details);
  }
}
