import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';

/** One span as an OTLP/HTTP JSON export carried it, flattened with its service's name. */
export interface ReceivedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  /** OTLP SpanKind: 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  kind: number;
  attributes: Record<string, unknown>;
}

export const OtlpSpanKind = { internal: 1, server: 2, client: 3, producer: 4, consumer: 5 } as const;

interface OtlpAttribute {
  key: string;
  value: { stringValue?: string; intValue?: string | number; boolValue?: boolean; doubleValue?: number };
}
interface OtlpExport {
  resourceSpans?: Array<{
    resource?: { attributes?: OtlpAttribute[] };
    scopeSpans?: Array<{
      spans?: Array<{
        traceId: string;
        spanId: string;
        parentSpanId?: string;
        name: string;
        kind: number;
        attributes?: OtlpAttribute[];
      }>;
    }>;
  }>;
}

const valueOf = (attribute: OtlpAttribute): unknown => {
  const { stringValue, intValue, boolValue, doubleValue } = attribute.value;
  return stringValue ?? (intValue !== undefined ? Number(intValue) : (boolValue ?? doubleValue));
};
const attributesOf = (list: OtlpAttribute[] | undefined): Record<string, unknown> =>
  Object.fromEntries((list ?? []).map((a) => [a.key, valueOf(a)]));

/** Flattens one OTLP/HTTP JSON trace export. */
export function spansOfExport(body: OtlpExport): ReceivedSpan[] {
  const spans: ReceivedSpan[] = [];
  for (const resourceSpans of body.resourceSpans ?? []) {
    const service = String(attributesOf(resourceSpans.resource?.attributes)['service.name'] ?? 'unknown');
    for (const scope of resourceSpans.scopeSpans ?? []) {
      for (const span of scope.spans ?? []) {
        spans.push({
          service,
          traceId: span.traceId,
          spanId: span.spanId,
          parentSpanId: span.parentSpanId || undefined,
          name: span.name,
          kind: span.kind,
          attributes: attributesOf(span.attributes),
        });
      }
    }
  }
  return spans;
}

/** One metric as an OTLP/HTTP JSON export carried it: its data points' attributes and values. */
export interface ReceivedMetric {
  service: string;
  name: string;
  /** sum, gauge or histogram. */
  type: string;
  points: Array<{ attributes: Record<string, unknown>; value?: number; count?: number; sum?: number }>;
}

interface OtlpMetricsExport {
  resourceMetrics?: Array<{
    resource?: { attributes?: OtlpAttribute[] };
    scopeMetrics?: Array<{
      metrics?: Array<
        { name: string } & Partial<
          Record<
            'sum' | 'gauge' | 'histogram',
            {
              dataPoints?: Array<{
                attributes?: OtlpAttribute[];
                asDouble?: number;
                asInt?: string | number;
                count?: string | number;
                sum?: number;
              }>;
            }
          >
        >
      >;
    }>;
  }>;
}

/** Flattens one OTLP/HTTP JSON metrics export. */
export function metricsOfExport(body: OtlpMetricsExport): ReceivedMetric[] {
  const received: ReceivedMetric[] = [];
  for (const resourceMetrics of body.resourceMetrics ?? []) {
    const service = String(attributesOf(resourceMetrics.resource?.attributes)['service.name'] ?? 'unknown');
    for (const scope of resourceMetrics.scopeMetrics ?? []) {
      for (const metric of scope.metrics ?? []) {
        const type = (['sum', 'gauge', 'histogram'] as const).find((t) => metric[t]);
        if (!type) continue;
        received.push({
          service,
          name: metric.name,
          type,
          points: (metric[type]!.dataPoints ?? []).map((p) => ({
            attributes: attributesOf(p.attributes),
            ...(p.asDouble !== undefined || p.asInt !== undefined
              ? { value: Number(p.asDouble ?? p.asInt) }
              : {}),
            ...(p.count !== undefined ? { count: Number(p.count), sum: p.sum } : {}),
          })),
        });
      }
    }
  }
  return received;
}

export interface OtlpReceiver {
  /** Base URL for OTEL_EXPORTER_OTLP_ENDPOINT (the exporters add /v1/traces and /v1/metrics). */
  endpoint: string;
  close(): Promise<void>;
}

/**
 * A local OTLP/HTTP receiver for tests (JSON encoding, the default of the JS exporters): every span
 * it is sent is appended to `spansFile` as one JSON line, and every metric to `metricsFile` (when
 * given; else metric exports are refused), so that test processes other than the one running the
 * receiver (jest's global setup) can read them (readReceivedSpans, readReceivedMetrics).
 */
export async function startOtlpReceiver(spansFile: string, metricsFile?: string): Promise<OtlpReceiver> {
  for (const file of [spansFile, metricsFile]) {
    if (!file) continue;
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, '');
  }
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      try {
        const traces = request.url?.endsWith('/v1/traces');
        const metrics = metricsFile !== undefined && request.url?.endsWith('/v1/metrics');
        if (request.method !== 'POST' || !(traces || metrics)) {
          response.writeHead(404).end();
          return;
        }
        let raw = Buffer.concat(chunks);
        if (request.headers['content-encoding'] === 'gzip') raw = zlib.gunzipSync(raw);
        const body = JSON.parse(raw.toString('utf8')) as unknown;
        const lines = traces ? spansOfExport(body as OtlpExport) : metricsOfExport(body as OtlpMetricsExport);
        if (lines.length > 0)
          fs.appendFileSync(
            traces ? spansFile : metricsFile!,
            lines.map((line) => JSON.stringify(line)).join('\n') + '\n',
          );
        response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      } catch (error) {
        response
          .writeHead(400, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: (error as Error).message }));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The spans a receiver wrote so far. */
export function readReceivedSpans(spansFile: string): ReceivedSpan[] {
  if (!fs.existsSync(spansFile)) return [];
  return fs
    .readFileSync(spansFile, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as ReceivedSpan);
}

/** The metrics a receiver wrote so far (one entry per metric per export). */
export function readReceivedMetrics(metricsFile: string): ReceivedMetric[] {
  if (!fs.existsSync(metricsFile)) return [];
  return fs
    .readFileSync(metricsFile, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as ReceivedMetric);
}
