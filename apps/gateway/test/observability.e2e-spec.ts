import fs from 'node:fs';
import path from 'node:path';
import { randomBytes, randomUUID } from 'node:crypto';
import { Kafka, logLevel } from 'kafkajs';
import { Topics } from '@swapgw/contracts';
import { api, ApiClient, createApiKey, testEnv, waitFor } from '@swapgw/testing';

// Through the running stack: a request with a known W3C traceparent reaches quote-service over
// Kafka with the same trace id (message headers), quote-service logs inside that trace, and both
// processes count the traffic on their /metrics endpoints (the gateway's on METRICS_PORT, not on
// the API port).

/** Value of one sample in Prometheus text, by metric name and exact label set (any order). */
function sampleOf(text: string, name: string, labels: Record<string, string>): number | undefined {
  for (const line of text.split('\n')) {
    const match = /^([a-z_:]+)\{([^}]*)\} (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries([...match[2].matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    if (
      Object.keys(found).length === Object.keys(labels).length &&
      Object.entries(labels).every(([k, v]) => found[k] === v)
    ) {
      return Number(match[3]);
    }
  }
  return undefined;
}

const metricsOf = async (url: string): Promise<string> => {
  const res = await fetch(url);
  expect(res.status).toBe(200);
  return res.text();
};

/** Parsed JSON log lines of every quote-service instance the harness started in this run. */
function quoteServiceLogLines(): Array<Record<string, unknown>> {
  const dir = path.join(testEnv().runDir, 'logs');
  return fs
    .readdirSync(dir)
    .filter((name) => name.startsWith('quote-service'))
    .flatMap((name) => fs.readFileSync(path.join(dir, name), 'utf8').split('\n'))
    .filter((line) => line.startsWith('{'))
    .map((line) => {
      try {
        return JSON.parse(line) as Record<string, unknown>;
      } catch {
        return {};
      }
    });
}

describe('observability through the running stack', () => {
  const env = testEnv();
  const gatewayUrl = process.env.GATEWAY_URL as string;
  const gatewayMetricsUrl = process.env.GATEWAY_METRICS_URL as string;
  const quoteServiceUrl = process.env.QUOTE_SERVICE_HEALTH_URL as string;
  const kafka = new Kafka({
    clientId: 'observability-e2e',
    brokers: env.brokers,
    logLevel: logLevel.NOTHING,
  });
  const readerGroup = `observability-e2e-${randomUUID()}`;
  const consumer = kafka.consumer({ groupId: readerGroup, allowAutoTopicCreation: false });
  const requests: Array<{ type?: string; headers: Record<string, string> }> = [];
  let client: ApiClient;

  beforeAll(async () => {
    if (!gatewayUrl || !gatewayMetricsUrl || !quoteServiceUrl) {
      throw new Error(
        'GATEWAY_URL / GATEWAY_METRICS_URL / QUOTE_SERVICE_HEALTH_URL not set: run through the e2e project',
      );
    }
    client = api(gatewayUrl, await createApiKey(`observability-e2e-${randomUUID().slice(0, 8)}`));
    // Read catalog.requests from the beginning: a new group starting at the end resolves "the end"
    // at its first fetch, which can come after the request under test (seen on a busy machine).
    // The test finds its request by trace id among everything the topic holds.
    const joined = new Promise<void>((resolve) => consumer.on(consumer.events.GROUP_JOIN, () => resolve()));
    await consumer.connect();
    await consumer.subscribe({ topic: Topics.catalogRequests, fromBeginning: true });
    await consumer.run({
      eachMessage: async ({ message }) => {
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(message.headers ?? {})) {
          const v = Array.isArray(value) ? value[0] : value;
          if (v !== undefined) headers[name] = v.toString();
        }
        const envelope = JSON.parse(message.value?.toString() ?? '{}') as { type?: string };
        requests.push({ type: envelope.type, headers });
      },
    });
    await joined;
  });

  afterAll(async () => {
    await consumer.disconnect();
    const admin = kafka.admin();
    await admin.connect();
    await admin.deleteGroups([readerGroup]).catch(() => undefined);
    await admin.disconnect();
  });

  it('follows one trace id from the HTTP request to the Kafka headers and the service log', async () => {
    const traceId = randomBytes(16).toString('hex');
    const res = await client.get('/tokens', {
      query: { chainRef: 'atlantis' },
      headers: { traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01` },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('UNKNOWN_CHAIN');
    expect(res.headers.traceparent).toMatch(new RegExp(`^00-${traceId}-[0-9a-f]{16}-01$`));

    const request = await waitFor(() => requests.find((r) => r.headers.traceparent?.includes(traceId)), {
      timeoutMs: 15_000,
      description: 'the catalog request carrying the trace id',
    });
    expect(request.type).toBe('catalog.tokens.list');
    expect(request.headers.traceparent).toMatch(new RegExp(`^00-${traceId}-[0-9a-f]{16}-01$`));
    expect(request.headers['x-request-id']).toBe(res.headers['x-request-id']);

    // The handler's error answer is logged by quote-service inside the request's context.
    const line = await waitFor(() => quoteServiceLogLines().find((l) => l.trace_id === traceId), {
      timeoutMs: 15_000,
      description: 'a quote-service log line with the trace id',
    });
    expect(line).toMatchObject({
      service: 'quote-service',
      requestId: res.headers['x-request-id'],
      code: 'UNKNOWN_CHAIN',
    });
  });

  it('counts the traffic on the gateway (METRICS_PORT) and quote-service /metrics endpoints', async () => {
    const res = await client.get('/chains');
    expect(res.status).toBe(200);

    // The lag gauge is sampled every 15 s from the service's start: a stack started moments ago may
    // not have its first sample yet.
    const lagLine =
      /^swapgw_kafka_consumer_lag_messages\{group="quote-service",topic="catalog\.requests",partition="\d+",service="quote-service"\} \d+/m;
    const countsOf = (text: string) => ({
      consumed: sampleOf(text, 'swapgw_kafka_messages_consumed_total', {
        topic: Topics.catalogRequests,
        type: 'catalog.chains.list',
        service: 'quote-service',
      }),
      replied: sampleOf(text, 'swapgw_kafka_messages_produced_total', {
        topic: `${Topics.catalogRequests}.reply`,
        type: 'catalog.chains.list',
        service: 'quote-service',
      }),
    });
    // Every request consumed is replied to. The stack is shared: another suite's request (or the
    // catalog's revalidation) may be between the two counters at one reading, not at every one.
    const service = await waitFor(
      async () => {
        const text = await metricsOf(`${quoteServiceUrl}/metrics`);
        const { consumed, replied } = countsOf(text);
        return lagLine.test(text) && replied === consumed ? text : undefined;
      },
      {
        timeoutMs: 30_000,
        intervalMs: 1000,
        description: 'the consumer-lag gauge of quote-service, and as many replies as requests consumed',
      },
    );
    expect(countsOf(service).consumed).toBeGreaterThanOrEqual(1);
    expect(service).toMatch(lagLine);

    const gateway = await metricsOf(gatewayMetricsUrl);
    expect(
      sampleOf(gateway, 'swapgw_http_request_duration_seconds_count', {
        method: 'GET',
        route: '/api/v1/chains',
        status_code: '200',
        service: 'gateway',
      }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sampleOf(gateway, 'swapgw_kafka_request_duration_seconds_count', {
        topic: Topics.catalogRequests,
        type: 'catalog.chains.list',
        outcome: 'ok',
        service: 'gateway',
      }),
    ).toBeGreaterThanOrEqual(1);
    // Not on the public API port: an unknown route there.
    const onApiPort = await api(gatewayUrl).get('/metrics');
    expect(onApiPort.status).toBe(404);
    expect(onApiPort.body.error.code).toBe('NOT_FOUND');
  });
});
