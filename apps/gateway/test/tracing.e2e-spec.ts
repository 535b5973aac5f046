import { randomBytes, randomUUID } from 'node:crypto';
import {
  api,
  ApiClient,
  createApiKey,
  OtlpSpanKind,
  readReceivedSpans,
  ReceivedSpan,
  waitFor,
} from '@swapgw/testing';

// One trace across the suite: the e2e stack runs every app with OTEL_EXPORTER_OTLP_ENDPOINT set to
// a local OTLP receiver (libs/testing e2e-global-setup). A request sent with a traceparent must come
// back as one trace: the gateway's server span, the consumer span of each service the request
// reached over Kafka (child of the span that sent it), and under those the PostgreSQL statements
// and the chain RPC calls they made.
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
    expect(quoteConsumer.parentSpanId).toBe(quoteServer!.spanId);
    expect(quoteConsumer.name).toBe('quote.requests process');

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
    const plannerConsumer = buildSpans.find(
      (s) =>
        s.service === 'execution-planner' &&
        s.kind === OtlpSpanKind.consumer &&
        s.parentSpanId === buildServer.spanId,
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
  });
});
