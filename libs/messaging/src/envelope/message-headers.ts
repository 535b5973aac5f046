import { MessageHeaders } from '@swapgw/contracts';
import {
  currentRequestContext,
  newRequestContext,
  RequestContext,
  runWithRequestContext,
  SpanKinds,
  startTrace,
} from '@swapgw/runtime';

export type KafkaHeaderValues = Record<string, string>;

/** Extra headers that make a message readable with kafka-console-consumer, without parsing it. */
export const EnvelopeHeaders = {
  eventId: 'x-event-id',
  messageType: 'x-message-type',
} as const;

/** Headers propagating the current request context (or a fresh one) to the next service. */
export function contextHeaders(
  context: RequestContext | undefined = currentRequestContext(),
): KafkaHeaderValues {
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
  return newRequestContext(senderOf(headers));
}

/** The sender's request id and traceparent, as its headers carry them. */
const senderOf = (headers: Record<string, unknown> | undefined) => ({
  requestId: headerString(headers, MessageHeaders.requestId),
  traceparent: headerString(headers, MessageHeaders.traceparent),
});

/**
 * Runs the handling of one consumed message in its context (requestContextFromHeaders): with
 * tracing on, inside a consumer span, child of the sender's, that ends with the handling.
 */
export async function runInMessageContext<T>(
  source: { topic: string; headers?: Record<string, unknown> },
  handle: () => Promise<T>,
): Promise<T> {
  const traced = startTrace(SpanKinds.consumer, senderOf(source.headers), () => ({
    name: `${source.topic} process`,
    attributes: {
      'messaging.system': 'kafka',
      'messaging.destination.name': source.topic,
      'messaging.operation.type': 'process',
    },
  }));
  if (!traced.end) return runWithRequestContext(traced.context, handle);
  try {
    const result = await runWithRequestContext(traced.context, handle);
    traced.end();
    return result;
  } catch (error) {
    traced.end(error);
    throw error;
  }
}
