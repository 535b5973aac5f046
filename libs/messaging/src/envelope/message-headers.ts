import { MessageHeaders } from '@swapgw/contracts';
import { currentRequestContext, newRequestContext, RequestContext } from '@swapgw/runtime';

export type KafkaHeaderValues = Record<string, string>;

/** Extra headers that make a message readable with kafka-console-consumer, without parsing it. */
export const EnvelopeHeaders = {
  eventId: 'x-event-id',
  messageType: 'x-message-type',
} as const;

/** Headers propagating the current request context (or a fresh one) to the next service. */
export function contextHeaders(context: RequestContext | undefined = currentRequestContext()): KafkaHeaderValues {
  const ctx = context ?? newRequestContext();
  return { [MessageHeaders.traceparent]: ctx.traceparent, [MessageHeaders.requestId]: ctx.requestId };
}

/** Kafka header values arrive as Buffer, string, array or undefined depending on the parser. */
export function headerString(headers: Record<string, unknown> | undefined, name: string): string | undefined {
  const raw = headers?.[name];
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (value === undefined || value === null) return undefined;
  return Buffer.isBuffer(value) ? value.toString('utf8') : String(value);
}

/**
 * The context a handler runs in: the sender's requestId and a child span of its traceparent.
 * Messages without these headers (old producers, hand-written test messages) get a new context.
 */
export function requestContextFromHeaders(headers: Record<string, unknown> | undefined): RequestContext {
  return newRequestContext({
    requestId: headerString(headers, MessageHeaders.requestId),
    traceparent: headerString(headers, MessageHeaders.traceparent),
  });
}
