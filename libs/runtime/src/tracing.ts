import {
  context as otelContext,
  propagation,
  ROOT_CONTEXT,
  Span,
  SpanKind,
  SpanStatusCode,
  trace,
  Tracer,
} from '@opentelemetry/api';
import { newRequestContext, RequestContext } from './request-context';

/**
 * OpenTelemetry traces, exported over OTLP/HTTP when OTEL_EXPORTER_OTLP_ENDPOINT (or
 * OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) is set, and nothing at all otherwise (no SDK is loaded, and a
 * span costs what a request context always cost).
 *
 * Each app calls `startTracing` first thing in main.ts, before Nest, pg or http are loaded, so that
 * the PostgreSQL and outgoing HTTP (chain RPC) instrumentations can hook them. The spans of our own
 * boundaries are made here, from the W3C traceparent the request context already carries through
 * HTTP and Kafka headers: the gateway's HTTP server span, and a consumer span per Kafka message a
 * service handles. Inside them, the request context enters the span's OTel context too, so that
 * queries and RPC calls become its children: one trace from the HTTP request through Kafka to each
 * service, its PostgreSQL statements and its chain RPC calls.
 */
export interface TracingHandle {
  /** Exports what is buffered and stops (on shutdown; bounded by the exporter's timeout). */
  shutdown(): Promise<void>;
}

let tracer: Tracer | undefined;

const isTracingEnabled = (env: NodeJS.ProcessEnv = process.env): boolean =>
  Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) &&
  env.OTEL_SDK_DISABLED !== 'true';

/** Sets up the SDK when tracing is configured; returns undefined (and does nothing) otherwise. */
export function startTracing(
  serviceName: string,
  env: NodeJS.ProcessEnv = process.env,
): TracingHandle | undefined {
  if (!isTracingEnabled(env) || tracer) return undefined;
  // Loaded only when tracing is on: production without a collector never loads the SDK.
  const { TracerProvider, BatchSpanProcessor } =
    require('@opentelemetry/sdk-trace') as typeof import('@opentelemetry/sdk-trace');
  const { OTLPTraceExporter } =
    require('@opentelemetry/exporter-trace-otlp-http') as typeof import('@opentelemetry/exporter-trace-otlp-http');
  const { resourceFromAttributes } =
    require('@opentelemetry/resources') as typeof import('@opentelemetry/resources');
  const { AsyncLocalStorageContextManager } =
    require('@opentelemetry/context-async-hooks') as typeof import('@opentelemetry/context-async-hooks');
  const { W3CTraceContextPropagator } =
    require('@opentelemetry/core') as typeof import('@opentelemetry/core');
  const { registerInstrumentations } =
    require('@opentelemetry/instrumentation') as typeof import('@opentelemetry/instrumentation');
  const { HttpInstrumentation } =
    require('@opentelemetry/instrumentation-http') as typeof import('@opentelemetry/instrumentation-http');
  const { PgInstrumentation } =
    require('@opentelemetry/instrumentation-pg') as typeof import('@opentelemetry/instrumentation-pg');

  const provider = new TracerProvider({
    resource: resourceFromAttributes({
      'service.name': env.OTEL_SERVICE_NAME || serviceName,
      ...(env.INSTANCE_ID ? { 'service.instance.id': env.INSTANCE_ID } : {}),
    }),
    spanProcessors: [
      new BatchSpanProcessor({
        exporter: new OTLPTraceExporter(),
        ...(Number(env.OTEL_BSP_SCHEDULE_DELAY) > 0
          ? { scheduledDelayMillis: Number(env.OTEL_BSP_SCHEDULE_DELAY) }
          : {}),
      }),
    ],
  });
  otelContext.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
  registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [
      // Incoming requests get our own server span (see traceRequest); outgoing ones (chain RPC, the
      // aggregators' APIs) a client span each.
      new HttpInstrumentation({ ignoreIncomingRequestHook: () => true, requireParentforOutgoingSpans: true }),
      new PgInstrumentation({ requireParentSpan: true }),
    ],
  });
  tracer = provider.getTracer('swapgw');
  return { shutdown: () => provider.shutdown() };
}

/** True once startTracing set the SDK up in this process. */
export const isTracing = (): boolean => tracer !== undefined;

export const SpanKinds = {
  server: SpanKind.SERVER,
  consumer: SpanKind.CONSUMER,
  producer: SpanKind.PRODUCER,
} as const;

/** A request context, and the span it belongs to when tracing is on. */
export interface TracedContext {
  context: RequestContext;
  /** Ends the span (once): failed when `error` is given. Absent when tracing is off. */
  end?: (error?: unknown, attributes?: Record<string, string | number>) => void;
}

/**
 * The context work runs in for an incoming request or message: the sender's request id, and a
 * child span of its traceparent. With tracing on, that span is a real OTel span as `describe`
 * names it (called only then; exported when `end` is called) and the context carries it, so that runWithRequestContext makes
 * it the parent of everything under it.
 */
export function startTrace(
  kind: SpanKind,
  incoming: { requestId?: unknown; traceparent?: unknown },
  describe: () => { name: string; attributes?: Record<string, string | number> },
): TracedContext {
  if (!tracer) return { context: newRequestContext(incoming) };
  const { name, attributes } = describe();
  const carrier = typeof incoming.traceparent === 'string' ? { traceparent: incoming.traceparent } : {};
  const parent = propagation.extract(ROOT_CONTEXT, carrier);
  const span = tracer.startSpan(name, { kind, attributes }, parent);
  const { traceId, spanId, traceFlags } = span.spanContext();
  const context: RequestContext = {
    ...newRequestContext({ requestId: incoming.requestId }),
    traceparent: `00-${traceId}-${spanId}-${traceFlags.toString(16).padStart(2, '0')}`,
    otel: trace.setSpan(parent, span),
  };
  let ended = false;
  return {
    context,
    end: (error?: unknown, endAttributes?: Record<string, string | number>) => {
      if (ended) return;
      ended = true;
      endSpan(span, error, endAttributes);
    },
  };
}

function endSpan(span: Span, error: unknown, attributes: Record<string, string | number> | undefined): void {
  if (attributes) span.setAttributes(attributes);
  if (error !== undefined) {
    span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error)?.message ?? String(error) });
  }
  span.end();
}
