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
import { metricsRegistry } from './metrics/metrics-registry';
import { promClientMetricProducer } from './metrics/otlp-metrics-bridge';
import { newRequestContext, RequestContext } from './request-context';

/**
 * OpenTelemetry traces and metrics, exported over OTLP/HTTP when OTEL_EXPORTER_OTLP_ENDPOINT is set
 * (or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT / OTEL_EXPORTER_OTLP_METRICS_ENDPOINT for one of them), and
 * nothing at all otherwise (no SDK is loaded, and a span costs what a request context always cost).
 *
 * Each app calls `startTelemetry` first thing in main.ts, before Nest, pg or http are loaded, so that
 * the PostgreSQL and outgoing HTTP (chain RPC) instrumentations can hook them. The spans of our own
 * boundaries are made here, from the W3C traceparent the request context already carries through
 * HTTP and Kafka headers: the gateway's HTTP server span, a producer span per Kafka message sent
 * (libs/messaging traced-producer.ts) and a consumer span per Kafka message a service handles.
 * Inside them, the request context enters the span's OTel context too, so that queries and RPC
 * calls become its children: one trace from the HTTP request through Kafka to each service, its
 * PostgreSQL statements and its chain RPC calls.
 *
 * Metrics: the prom-client registry served on /metrics is also pushed to `<endpoint>/v1/metrics`
 * every OTEL_METRIC_EXPORT_INTERVAL ms (default 60000), read through promClientMetricProducer: one
 * definition per metric, two ways out.
 */
export interface TelemetryHandle {
  /** Exports what is buffered and stops (on shutdown; bounded by the exporters' timeouts). */
  shutdown(): Promise<void>;
}

let tracer: Tracer | undefined;
let metricsExporting = false;

const isDisabled = (env: NodeJS.ProcessEnv): boolean => env.OTEL_SDK_DISABLED === 'true';
const isTracingEnabled = (env: NodeJS.ProcessEnv): boolean =>
  Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) && !isDisabled(env);
const isMetricsExportEnabled = (env: NodeJS.ProcessEnv): boolean =>
  Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_METRICS_ENDPOINT) && !isDisabled(env);

/** Sets up trace and metric export as configured; returns undefined (and does nothing) otherwise. */
export function startTelemetry(
  serviceName: string,
  env: NodeJS.ProcessEnv = process.env,
): TelemetryHandle | undefined {
  const { resourceFromAttributes } =
    require('@opentelemetry/resources') as typeof import('@opentelemetry/resources');
  const resource = resourceFromAttributes({
    'service.name': env.OTEL_SERVICE_NAME || serviceName,
    ...(env.INSTANCE_ID ? { 'service.instance.id': env.INSTANCE_ID } : {}),
  });
  const started = [
    isTracingEnabled(env) && !tracer ? startTraceExport(resource, env) : undefined,
    isMetricsExportEnabled(env) && !metricsExporting ? startMetricsExport(resource, env) : undefined,
  ].filter((handle): handle is TelemetryHandle => handle !== undefined);
  if (started.length === 0) return undefined;
  return { shutdown: async () => void (await Promise.all(started.map((handle) => handle.shutdown()))) };
}

type Resource = import('@opentelemetry/resources').Resource;

/** The signal's own endpoint as given, else `<OTEL_EXPORTER_OTLP_ENDPOINT>/v1/<signal>` (the OTLP/HTTP rule). */
const otlpUrl = (env: NodeJS.ProcessEnv, signal: 'traces' | 'metrics'): string =>
  env[`OTEL_EXPORTER_OTLP_${signal.toUpperCase()}_ENDPOINT`] ||
  `${(env.OTEL_EXPORTER_OTLP_ENDPOINT ?? '').replace(/\/+$/, '')}/v1/${signal}`;

function startTraceExport(resource: Resource, env: NodeJS.ProcessEnv): TelemetryHandle {
  // Loaded only when tracing is on: production without a collector never loads the SDK.
  const { TracerProvider, BatchSpanProcessor } =
    require('@opentelemetry/sdk-trace') as typeof import('@opentelemetry/sdk-trace');
  const { OTLPTraceExporter } =
    require('@opentelemetry/exporter-trace-otlp-http') as typeof import('@opentelemetry/exporter-trace-otlp-http');
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
    resource,
    spanProcessors: [
      new BatchSpanProcessor({
        exporter: new OTLPTraceExporter({ url: otlpUrl(env, 'traces') }),
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

function startMetricsExport(resource: Resource, env: NodeJS.ProcessEnv): TelemetryHandle {
  const { MeterProvider, PeriodicExportingMetricReader } =
    require('@opentelemetry/sdk-metrics') as typeof import('@opentelemetry/sdk-metrics');
  const { OTLPMetricExporter } =
    require('@opentelemetry/exporter-metrics-otlp-http') as typeof import('@opentelemetry/exporter-metrics-otlp-http');
  const interval =
    Number(env.OTEL_METRIC_EXPORT_INTERVAL) > 0 ? Number(env.OTEL_METRIC_EXPORT_INTERVAL) : 60_000;
  const provider = new MeterProvider({
    resource,
    readers: [
      new PeriodicExportingMetricReader({
        exporter: new OTLPMetricExporter({ url: otlpUrl(env, 'metrics') }),
        exportIntervalMillis: interval,
        exportTimeoutMillis: Math.min(30_000, interval),
        metricProducers: [promClientMetricProducer(metricsRegistry())],
      }),
    ],
  });
  metricsExporting = true;
  return { shutdown: () => provider.shutdown() };
}

/** True once startTelemetry set the trace SDK up in this process. */
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
