import type { DataSource, EntityManager } from 'typeorm';
import type { KafkaContext } from '@nestjs/microservices';
import { MessageEnvelope } from '@swapgw/contracts';
import { DeadLetterSource, publishDeadLetter } from '../dead-letter/dead-letter';
import { PayloadClass } from '../envelope/message-validation';

/** Responder handler for one request `type`. */
export interface RequestHandler<P extends object, R> {
  payload: PayloadClass<P>;
  handle: (payload: P, envelope: MessageEnvelope<P>) => Promise<R> | R;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type RequestHandlers = Record<string, RequestHandler<any, unknown>>;

/** Stream handler for one event or command `type`, run inside the consumer's DB transaction. */
export interface StreamHandler<P extends object> {
  payload: PayloadClass<P>;
  /** `firstRead`: the rows of `readFirst`, when the handler has one. */
  handle: (
    payload: P,
    envelope: MessageEnvelope<P>,
    manager: EntityManager,
    firstRead?: Record<string, unknown>[],
  ) => Promise<void> | void;
  /**
   * A read the transaction starts with (optional), sent in the same message as its START
   * TRANSACTION and the claim (one round trip for the three), its rows handed to `handle`: for a
   * handler whose first statement is a read it needs whatever the read finds. Complete SQL, its
   * values inlined (`sqlLiteral`): that message takes no parameters. It runs even when the claim
   * finds the event applied (and is then ignored).
   */
  readFirst?: (payload: P, dataSource: DataSource) => string;
  /**
   * Asked before the transaction (optional): false means there is nothing to do for this message,
   * which is then acknowledged as ignored, without a transaction or a processed_events row. For a
   * cheap read that spares most messages of a topic a transaction (e.g. events of owners without
   * webhooks). Errors are treated as the handler's.
   */
  wanted?: (payload: P, envelope: MessageEnvelope<P>) => Promise<boolean> | boolean;
  /**
   * A fast path tried before the transaction (optional): apply the whole event in one
   * autocommitted statement that carries `claim` (the processed_events row), guarded so that it
   * writes nothing unless it applies all of it. True: applied. False: nothing was written (the
   * event was applied already, a concurrent write got there first, or a case the statement does
   * not cover); `handle` then runs in the consumer's transaction and decides. For handlers whose
   * transaction would be read, lock, write: two round trips instead of four.
   */
  applyAtOnce?: (payload: P, envelope: MessageEnvelope<P>, claim: EventClaim) => Promise<boolean>;
}

/**
 * The claim of one event by the consumer group, as parts of the fast path's statement. Each
 * appends its values to `parameters` (shared with the rest of the statement) and refers to them
 * by position.
 */
export interface EventClaim {
  /** A condition, true while this group has not applied the event. */
  notClaimed(parameters: unknown[]): string;
  /** An INSERT that claims the event once per row of the CTE `source` (the rows written). */
  claimFor(source: string, parameters: unknown[]): string;
}

/** A type meant for another consumer of the same topic: acknowledged and skipped. */
export interface IgnoredType {
  ignore: true;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type StreamHandlers = Record<string, StreamHandler<any> | IgnoredType>;

/** Where a message came from, for logs and the dead-letter copy. */
export function messageSource(ctx: KafkaContext): DeadLetterSource {
  const message = ctx.getMessage();
  return {
    topic: ctx.getTopic(),
    partition: ctx.getPartition(),
    offset: message.offset,
    key: message.key,
    value: message.value,
    headers: message.headers as Record<string, unknown> | undefined,
  };
}

/**
 * Parks the message of `ctx` on its topic's dead-letter topic, saying why, which group gave up on it
 * and when (`failedAtMs`, the consumer's Clock time).
 */
export function parkOnDeadLetterTopic(
  ctx: KafkaContext,
  reason: string,
  consumerGroup: string,
  failedAtMs: number,
): Promise<void> {
  return publishDeadLetter(ctx.getProducer(), messageSource(ctx), reason, consumerGroup, failedAtMs);
}

/**
 * Calls the consumer's heartbeat while a long handler runs, so the group coordinator does not
 * think the member died and hand its partitions to someone else mid-message.
 */
export async function withHeartbeat<T>(
  ctx: KafkaContext,
  work: () => Promise<T>,
  everyMs = 2000,
): Promise<T> {
  const heartbeat = ctx.getHeartbeat?.();
  if (!heartbeat) return work();
  const timer = setInterval(() => {
    heartbeat().catch(() => undefined); // a failed heartbeat shows up as a rebalance, handled by kafkajs
  }, everyMs);
  try {
    return await work();
  } finally {
    clearInterval(timer);
  }
}

/**
 * The message's `type` for metrics when one of `handlers` knows it, else undefined (counted as
 * `unknown`): a type read from an unvalidated message would make the label unbounded.
 */
export function handledTypeOf(message: unknown, handlers: Record<string, unknown>): string | undefined {
  const type =
    typeof message === 'object' && message !== null ? (message as { type?: unknown }).type : undefined;
  return typeof type === 'string' && Object.prototype.hasOwnProperty.call(handlers, type) ? type : undefined;
}
