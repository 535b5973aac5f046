import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes, randomUUID } from 'node:crypto';
import { context as otelContext, Context } from '@opentelemetry/api';

/** What follows one request through HTTP, Kafka headers and logs. */
export interface RequestContext {
  requestId: string;
  /** W3C trace context header value: 00-<trace-id>-<span-id>-<flags>. */
  traceparent: string;
  /** With tracing on (tracing.ts): the OTel context of the span `traceparent` names. */
  otel?: Context;
}

const storage = new AsyncLocalStorage<RequestContext>();

/** Runs `fn` in `context`, and in its span's OTel context when it has one (its children's parent). */
export function runWithRequestContext<T>(context: RequestContext, fn: () => T): T {
  const { otel } = context;
  return storage.run(context, otel ? () => otelContext.with(otel, fn) : fn);
}
export const currentRequestContext = (): RequestContext | undefined => storage.getStore();

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export const isWellFormedRequestId = (value: unknown): value is string =>
  typeof value === 'string' && REQUEST_ID.test(value);

/**
 * Random hex for trace and span ids, drawn from a pool filled 4 KiB at a time: one randomBytes
 * call per request (a synchronous syscall) cost the gateway about 4% of its CPU at full load.
 * Node's randomUUID pools its entropy the same way.
 */
const RANDOM_POOL_BYTES = 4096;
let randomPool = Buffer.alloc(0);
let randomPoolOffset = 0;
function randomHex(bytes: number): string {
  if (randomPoolOffset + bytes > randomPool.length) {
    randomPool = randomBytes(RANDOM_POOL_BYTES);
    randomPoolOffset = 0;
  }
  const hex = randomPool.toString('hex', randomPoolOffset, randomPoolOffset + bytes);
  randomPoolOffset += bytes;
  return hex;
}

export function newTraceparent(): string {
  return `00-${randomHex(16)}-${randomHex(8)}-01`;
}

/** A child span of an incoming traceparent (same trace id, new span id), or a new trace. */
export function childTraceparent(parent: string | undefined): string {
  const match = parent ? TRACEPARENT.exec(parent) : null;
  if (!match || /^0+$/.test(match[1])) return newTraceparent();
  return `00-${match[1]}-${randomHex(8)}-${match[3]}`;
}

export const traceIdOf = (traceparent: string | undefined): string | undefined =>
  traceparent ? TRACEPARENT.exec(traceparent)?.[1] : undefined;

/** The span id of a traceparent: the span the work of its context runs in. */
export const spanIdOf = (traceparent: string | undefined): string | undefined =>
  traceparent ? TRACEPARENT.exec(traceparent)?.[2] : undefined;

export function newRequestContext(incoming?: { requestId?: unknown; traceparent?: unknown }): RequestContext {
  return {
    requestId: isWellFormedRequestId(incoming?.requestId) ? incoming.requestId : randomUUID(),
    traceparent: childTraceparent(
      typeof incoming?.traceparent === 'string' ? incoming.traceparent : undefined,
    ),
  };
}
