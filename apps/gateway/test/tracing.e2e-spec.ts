import { randomBytes, randomUUID } from 'node:crypto';
import {
  api,
  ApiClient,
  createApiKey,
  OtlpSpanKind,
  readReceivedMetrics,
  readReceivedSpans,
  ReceivedSpan,
  waitFor,
} from '@swapgw/testing';

// One trace across the suite: the e2e stack runs every app with OTEL_EXPORTER_OTLP_ENDPOINT set to
// a local OTLP receiver (libs/testing e2e-global-setup). A request sent with a traceparent must come
// back as one trace: the gateway's server span, a producer span for each Kafka send, the consumer
// span of each service the message reached (child of the producer span that sent it, in another
// process), and under those the PostgreSQL statements and the chain RPC calls they made. Each app
// also pushes its metrics to the receiver's /v1/metrics.
const USER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

describe('OpenTelemetry traces across HTTP, Kafka, services, PostgreSQL and chain RPC', () => {
  let client: ApiClient;
  const spansFile = process.env.OTLP_SPANS_FILE as string;

  beforeAll(async () => {
    if (!spansFile)
      throw new Error(
        'OTLP_SPANS_FILE is not set: run through the e2e project (global setup starts the receiver)',
      );
    client = api(
      process.env.GATEWAY_URL as string,
      await createApiKey(`tracing-e2e-${randomUUID().slice(0, 8)}`),
    );
  });

  /** A traceparent of our own: the trace id to look for, and the parent the gateway's span must name. */
  const newTrace = () => {
    const traceId = randomBytes(16).toString('hex');
    const parentSpanId = randomBytes(8).toString('hex');
    return { traceId, parentSpanId, headers: { traceparent: `00-${traceId}-${parentSpanId}-01` } };
  };
  const spansOf = (traceId: string): ReceivedSpan[] =>
    readReceivedSpans(spansFile).filter((s) => s.traceId === traceId);
  /** The span and its ancestors within the trace, nearest first. */
  const lineageOf = (span: ReceivedSpan, spans: ReceivedSpan[]): ReceivedSpan[] => {
    const byId = new Map(spans.map((s) => [s.spanId, s]));
    const lineage: ReceivedSpan[] = [];
    for (
      let current: ReceivedSpan | undefined = span;
      current;
      current = current.parentSpanId ? byId.get(current.parentSpanId) : undefined
    ) {
      lineage.push(current);
    }
    return lineage;
  };

  it('follows a build from the gateway to the planner and the signer, with their statements and RPC calls', async () => {
    const quoteTrace = newTrace();
    const quote = await client.post(
      '/quote',
      { fromChain: 'devnet-a', toChain: 'devnet-a', tokenIn: 'USDC', tokenOut: 'WETH', amount: '1' },
      { headers: quoteTrace.headers },
    );
    expect(quote.status).toBe(200);
    expect(quote.headers.traceparent).toMatch(new RegExp(`^00-${quoteTrace.traceId}-[0-9a-f]{16}-01$`));

    const buildTrace = newTrace();
    const build = await client.post(
      '/swap/build',
      {
        quoteId: quote.body.data.quoteId,
        routeId: quote.body.data.routes[0].routeId,
        userAddress: USER,
        waitForTxRequestMs: 20_000,
      },
      { headers: buildTrace.headers },
    );
    expect([200, 202]).toContain(build.status);

    // The quote: gateway → quote-service over Kafka → its statements.
    const quoteSpans = await waitFor(
      async () => {
        const spans = spansOf(quoteTrace.traceId);
        return spans.some((s) => s.service === 'quote-service' && s.kind === OtlpSpanKind.consumer) &&
          spans.some((s) => s.service === 'gateway')
          ? spans
          : null;
      },
      { timeoutMs: 30_000, description: 'the quote trace' },
    );
    const quoteServer = quoteSpans.find((s) => s.service === 'gateway' && s.kind === OtlpSpanKind.server);
    expect(quoteServer).toMatchObject({ name: 'POST /api/v1/quote', parentSpanId: quoteTrace.parentSpanId });
    const quoteConsumer = quoteSpans.find(
      (s) => s.service === 'quote-service' && s.kind === OtlpSpanKind.consumer,
    )!;
    expect(quoteConsumer.name).toBe('quote.requests process');
    // The gateway's send, between its server span and quote-service's consumer span.
    const quoteSend = quoteSpans.find((s) => s.spanId === quoteConsumer.parentSpanId);
    expect(quoteSend).toMatchObject({
      service: 'gateway',
      kind: OtlpSpanKind.producer,
      name: 'quote.requests send',
      parentSpanId: quoteServer!.spanId,
      attributes: {
        'messaging.system': 'kafka',
        'messaging.destination.name': 'quote.requests',
        'messaging.operation.type': 'send',
      },
    });

    // The build: gateway → swap.commands → planner (statements, chain reads) → signer-surface.
    const buildSpans = await waitFor(
      async () => {
        const spans = spansOf(buildTrace.traceId);
        const has = (service: string, kind: number) =>
          spans.some((s) => s.service === service && s.kind === kind);
        return has('gateway', OtlpSpanKind.server) &&
          has('execution-planner', OtlpSpanKind.consumer) &&
          has('signer-surface', OtlpSpanKind.consumer) &&
          spans.some((s) => s.kind === OtlpSpanKind.client)
          ? spans
          : null;
      },
      { timeoutMs: 30_000, description: 'the build trace through the planner and the signer' },
    );
    const buildServer = buildSpans.find((s) => s.service === 'gateway' && s.kind === OtlpSpanKind.server)!;
    expect(buildServer).toMatchObject({
      name: 'POST /api/v1/swap/build',
      parentSpanId: buildTrace.parentSpanId,
    });
    // (The build sends a price check on quote.requests too: the command is the one on swap.commands.)
    const commandSend = buildSpans.find(
      (s) => s.service === 'gateway' && s.kind === OtlpSpanKind.producer && s.name === 'swap.commands send',
    );
    expect(commandSend?.parentSpanId).toBe(buildServer.spanId);
    const plannerConsumer = buildSpans.find(
      (s) =>
        s.service === 'execution-planner' &&
        s.kind === OtlpSpanKind.consumer &&
        s.parentSpanId === commandSend!.spanId,
    );
    expect(plannerConsumer).toMatchObject({ name: 'swap.commands process' });

    // Statements and RPC calls hang under a service's consumer span, itself under the gateway's span.
    const underBuild = (span: ReceivedSpan) =>
      lineageOf(span, buildSpans).some((s) => s.spanId === buildServer.spanId);
    const statements = buildSpans.filter(
      (s) => s.attributes['db.system.name'] === 'postgresql' || s.attributes['db.system'] === 'postgresql',
    );
    expect(
      statements.filter((s) => s.service === 'execution-planner' && underBuild(s)).length,
    ).toBeGreaterThan(0);
    const rpcCalls = buildSpans.filter((s) => s.kind === OtlpSpanKind.client && s.service !== 'gateway');
    expect(rpcCalls.length).toBeGreaterThan(0);
    for (const call of rpcCalls) {
      const lineage = lineageOf(call, buildSpans);
      expect(lineage.some((s) => s.kind === OtlpSpanKind.consumer && s.service === call.service)).toBe(true);
      expect(underBuild(call)).toBe(true);
    }
    // The signer's work on this swap is part of the same trace, through the planner's event.
    const signerConsumer = buildSpans.find(
      (s) => s.service === 'signer-surface' && s.kind === OtlpSpanKind.consumer,
    )!;
    expect(lineageOf(signerConsumer, buildSpans).some((s) => s.service === 'execution-planner')).toBe(true);
    // …through a producer span of the planner (its outbox relay), the signer's consumer span's parent.
    expect(buildSpans.find((s) => s.spanId === signerConsumer.parentSpanId)).toMatchObject({
      service: 'execution-planner',
      kind: OtlpSpanKind.producer,
    });
  });

  it('receives every app’s metrics over OTLP at /v1/metrics, as /metrics serves them', async () => {
    const metricsFile = process.env.OTLP_METRICS_FILE as string;
    expect(metricsFile).toBeTruthy();
    const apps = ['gateway', 'quote-service', 'execution-planner', 'signer-surface', 'limit-order-service'];
    const received = await waitFor(
      () => {
        const metrics = readReceivedMetrics(metricsFile);
        return apps.every((app) => metrics.some((m) => m.service === app && m.name.startsWith('swapgw_')))
          ? metrics
          : null;
      },
      { timeoutMs: 30_000, description: 'swapgw_ metrics of the five apps at /v1/metrics' },
    );
    const httpDurations = received.filter(
      (m) => m.service === 'gateway' && m.name === 'swapgw_http_request_duration_seconds',
    );
    expect(httpDurations.length).toBeGreaterThan(0);
    expect(httpDurations.at(-1)!.type).toBe('histogram');
    expect(httpDurations.at(-1)!.points.some((p) => (p.count ?? 0) > 0)).toBe(true);
  });
});
