import { Controller, Global, Logger, Module } from '@nestjs/common';
import { Ctx, KafkaContext, MessagePattern, Payload } from '@nestjs/microservices';
import { TopicEvents } from '../consumer/topic-events.decorator';
import { IsString } from 'class-validator';
import { DataSource } from 'typeorm';
import { deadLetterTopicOf, replyTopicOf } from '@swapgw/contracts';
import path from 'node:path';
import {
  GlobalClockModule,
  runWithRequestContext,
  startTelemetry,
  SystemClock,
  TelemetryHandle,
} from '@swapgw/runtime';
import {
  freePort,
  OtlpReceiver,
  OtlpSpanKind,
  readReceivedMetrics,
  readReceivedSpans,
  ReceivedSpan,
  startOtlpReceiver,
  testEnv,
  waitFor,
} from '@swapgw/testing';
import { bootstrapKafkaService, KafkaServiceHandle } from '../bootstrap/bootstrap-kafka-service';
import { IdempotentConsumer } from '../consumer/idempotent-consumer';
import { MessagingModule } from '../messaging.module';
import { CreateMessagingTables1763700000000 } from '../outbox/create-messaging-tables.migration';
import { Outbox } from '../outbox/outbox';
import { OutboxMessageEntity } from '../outbox/outbox-message.entity';
import { ProcessedEventEntity } from '../outbox/processed-event.entity';
import { RequestReplyClient } from '../request-reply/request-reply.client';
import { RequestResponder } from '../request-reply/request-responder';
import {
  createTestDataSource,
  dropSchema,
  produceRaw,
  testKafkaSettings,
  TopicReader,
  uniqueSuffix,
} from '../testing/messaging-test-support';

// A Kafka service started the way main.ts starts one (bootstrapKafkaService), with a responder
// that writes an outbox event and a stream consumer that applies it: after real traffic, its
// /metrics shows the counters, and every hop carries the caller's trace id (headers and logs).
// Telemetry is on as an operator's stack has it (OTEL_EXPORTER_OTLP_ENDPOINT at a local OTLP/HTTP
// receiver): each send is a producer span whose child is the consumer span of the message it sent,
// and the /metrics registry is pushed to /v1/metrics too.

class PlaceOrder {
  @IsString()
  orderId!: string;
}

const suffix = uniqueSuffix();
const service = `itest-obs-${suffix}`;
const requestTopic = `itest.obs.${suffix}`;
const eventsTopic = `itest.obs-events.${suffix}`;
const groupId = `itest-obs-${suffix}`;
const schema = `msg_obs_${suffix}`;
const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const TRACEPARENT = `00-${TRACE_ID}-00f067aa0ba902b7-01`;

@Controller()
class OrdersController {
  private readonly logger = new Logger('OrdersController');

  constructor(
    private readonly responder: RequestResponder,
    private readonly consumer: IdempotentConsumer,
    private readonly outbox: Outbox,
    private readonly dataSource: DataSource,
  ) {}

  @MessagePattern(requestTopic)
  place(@Payload() message: unknown, @Ctx() ctx: KafkaContext) {
    return this.responder.respond(message, ctx, {
      'order.place': {
        payload: PlaceOrder,
        handle: async (p: PlaceOrder) => {
          this.logger.log({ msg: 'placing order', orderId: p.orderId });
          await this.dataSource.transaction((manager) =>
            this.outbox.enqueue(manager, {
              topic: eventsTopic,
              type: 'order.placed',
              aggregateId: p.orderId,
              payload: { orderId: p.orderId },
            }),
          );
          return { accepted: p.orderId };
        },
      },
    });
  }

  @TopicEvents(eventsTopic)
  async placed(@Payload() message: unknown, @Ctx() ctx: KafkaContext): Promise<void> {
    await this.consumer.consume(message, ctx, {
      'order.placed': {
        payload: PlaceOrder,
        handle: (p: PlaceOrder) => this.logger.log({ msg: 'order placed applied', orderId: p.orderId }),
      },
    });
  }
}

function serviceModule(dataSource: DataSource) {
  @Global()
  @Module({ providers: [{ provide: DataSource, useValue: dataSource }], exports: [DataSource] })
  class TestDatabaseModule {}

  @Module({
    imports: [
      TestDatabaseModule,
      GlobalClockModule.of(new SystemClock()),
      MessagingModule.forRoot({
        clientId: service,
        groupId,
        outbox: true,
        settings: testKafkaSettings(service),
        relay: { sweepIntervalMs: 200, backlogSampleIntervalMs: 200 },
        consumerLag: { intervalMs: 300 },
      }),
    ],
    controllers: [OrdersController],
  })
  class ObservedServiceModule {}
  return ObservedServiceModule;
}

/** Value of one sample in Prometheus text, by metric name and exact label set (any order). */
function sampleOf(text: string, name: string, labels: Record<string, string>): number | undefined {
  for (const line of text.split('\n')) {
    const match = /^([a-z_:]+)\{([^}]*)\} (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries([...match[2].matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    const wanted = { ...labels, service };
    if (
      Object.keys(found).length === Object.keys(wanted).length &&
      Object.entries(wanted).every(([k, v]) => found[k] === v)
    ) {
      return Number(match[3]);
    }
  }
  return undefined;
}

describe('observability of a Kafka service (real Kafka and PostgreSQL)', () => {
  const settings = testKafkaSettings(service);
  const requester = new RequestReplyClient(
    testKafkaSettings(`${service}-caller`),
    [requestTopic],
    new SystemClock(),
  );
  const logLines: Array<Record<string, unknown>> = [];
  const originalWrite = process.stdout.write.bind(process.stdout);
  let dataSource: DataSource;
  let handle: KafkaServiceHandle | null = null;
  let eventsReader: TopicReader;
  let metricsUrl: string;
  let otlp: OtlpReceiver;
  let telemetry: TelemetryHandle | undefined;
  const spansFile = path.join(testEnv().runDir, `otlp-spans-${suffix}.jsonl`);
  const otlpMetricsFile = path.join(testEnv().runDir, `otlp-metrics-${suffix}.jsonl`);

  const metrics = async (): Promise<string> => {
    const res = await fetch(metricsUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    return res.text();
  };

  beforeAll(async () => {
    // The JSON logger writes one object per line to stdout: keep a parsed copy of each line.
    process.stdout.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      for (const line of String(chunk).split('\n')) {
        if (!line.startsWith('{')) continue;
        try {
          logLines.push(JSON.parse(line) as Record<string, unknown>);
        } catch {
          // not one of ours
        }
      }
      return (originalWrite as (...args: unknown[]) => boolean)(chunk, ...rest);
    }) as typeof process.stdout.write;

    otlp = await startOtlpReceiver(spansFile, otlpMetricsFile);
    telemetry = startTelemetry(service, {
      OTEL_EXPORTER_OTLP_ENDPOINT: otlp.endpoint,
      OTEL_BSP_SCHEDULE_DELAY: '100',
      OTEL_METRIC_EXPORT_INTERVAL: '500',
    });
    dataSource = await createTestDataSource(
      schema,
      [OutboxMessageEntity, ProcessedEventEntity],
      [CreateMessagingTables1763700000000],
    );
    const port = await freePort();
    metricsUrl = `http://127.0.0.1:${port}/metrics`;
    handle = await bootstrapKafkaService({
      module: serviceModule(dataSource),
      service,
      groupId,
      healthPort: port,
      healthHost: '127.0.0.1',
      settings,
      topics: [
        { name: requestTopic, partitions: 2 },
        { name: replyTopicOf(requestTopic), partitions: 8 },
        { name: deadLetterTopicOf(requestTopic), partitions: 1 },
        { name: eventsTopic, partitions: 2 },
        { name: deadLetterTopicOf(eventsTopic), partitions: 1 },
      ],
    });
    await waitFor(async () => (await fetch(`http://127.0.0.1:${port}/health/ready`)).status === 200, {
      description: 'readiness',
      timeoutMs: 30_000,
    });
    eventsReader = await new TopicReader(settings, eventsTopic).start();
    await requester.connect();
  });

  afterAll(async () => {
    process.stdout.write = originalWrite;
    await Promise.allSettled([handle?.close(), requester.close(), eventsReader?.stop()]);
    await telemetry?.shutdown();
    await otlp?.close();
    await dataSource?.destroy();
    await dropSchema(schema);
  });

  it('carries the caller trace id through Kafka headers into both handlers and their logs', async () => {
    const reply = await runWithRequestContext({ requestId: 'obs-req-1', traceparent: TRACEPARENT }, () =>
      requester.request(requestTopic, 'order.place', 'order-1', { orderId: 'order-1' }),
    );
    expect(reply).toEqual({ accepted: 'order-1' });

    const event = await waitFor(() => eventsReader.messages.find((m) => m.key === 'order-1'), {
      description: 'order.placed on the events topic',
      timeoutMs: 30_000,
    });
    expect(event.headers.traceparent).toMatch(new RegExp(`^00-${TRACE_ID}-[0-9a-f]{16}-01$`));
    expect(event.headers.traceparent).not.toBe(TRACEPARENT); // a child span, same trace
    expect(event.headers['x-request-id']).toBe('obs-req-1');

    const applied = await waitFor(() => logLines.find((l) => l.msg === 'order placed applied'), {
      description: 'the stream handler log line',
      timeoutMs: 30_000,
    });
    const placing = logLines.find((l) => l.msg === 'placing order');
    for (const line of [placing, applied]) {
      expect(line).toMatchObject({ service, trace_id: TRACE_ID, requestId: 'obs-req-1', orderId: 'order-1' });
      expect(line!.span_id).toMatch(/^[0-9a-f]{16}$/);
    }

    // The same hops as spans: each send a PRODUCER span, parent of the CONSUMER span of what it sent.
    const spans = await waitFor(
      () => {
        const found = readReceivedSpans(spansFile).filter((s) => s.traceId === TRACE_ID);
        return found.some((s) => s.name === `${eventsTopic} process`) ? found : null;
      },
      { description: 'the spans of the trace at the OTLP receiver', timeoutMs: 30_000 },
    );
    const one = (name: string, kind: number): ReceivedSpan => {
      const matching = spans.filter((s) => s.name === name && s.kind === kind);
      expect(matching).toHaveLength(1);
      return matching[0];
    };
    const requestSend = one(`${requestTopic} send`, OtlpSpanKind.producer);
    expect(requestSend).toMatchObject({
      service,
      parentSpanId: TRACEPARENT.split('-')[2],
      attributes: {
        'messaging.system': 'kafka',
        'messaging.destination.name': requestTopic,
        'messaging.operation.type': 'send',
      },
    });
    const requestProcess = one(`${requestTopic} process`, OtlpSpanKind.consumer);
    expect(requestProcess.parentSpanId).toBe(requestSend.spanId);
    // The outbox relay sends later, from its own sweep: still the child of the handler that wrote the row.
    const eventSend = one(`${eventsTopic} send`, OtlpSpanKind.producer);
    expect(eventSend.parentSpanId).toBe(requestProcess.spanId);
    expect(eventSend.attributes['messaging.message.id']).toEqual(expect.any(String));
    const eventProcess = one(`${eventsTopic} process`, OtlpSpanKind.consumer);
    expect(eventProcess.parentSpanId).toBe(eventSend.spanId);
    expect(event.headers.traceparent).toBe(`00-${TRACE_ID}-${eventSend.spanId}-01`);
  });

  it('serves the produced, consumed, request-reply, dead-letter, outbox and lag metrics on /metrics', async () => {
    await produceRaw(settings, eventsTopic, [{ key: 'bad-1', value: '{"not":"an envelope"}' }]);
    const text = await waitFor(
      async () => {
        const body = await metrics();
        return sampleOf(body, 'swapgw_kafka_dead_lettered_total', { topic: eventsTopic }) === 1 ? body : null;
      },
      { description: 'the dead-lettered message in /metrics', timeoutMs: 30_000 },
    );

    expect(
      sampleOf(text, 'swapgw_kafka_messages_consumed_total', { topic: requestTopic, type: 'order.place' }),
    ).toBe(1);
    expect(
      sampleOf(text, 'swapgw_kafka_messages_produced_total', {
        topic: replyTopicOf(requestTopic),
        type: 'order.place',
      }),
    ).toBe(1);
    expect(
      sampleOf(text, 'swapgw_kafka_messages_produced_total', { topic: eventsTopic, type: 'order.placed' }),
    ).toBe(1);
    expect(
      sampleOf(text, 'swapgw_kafka_messages_consumed_total', { topic: eventsTopic, type: 'order.placed' }),
    ).toBe(1);
    // The invalid message: consumed under `unknown`, parked, its copy produced on the DLQ.
    expect(
      sampleOf(text, 'swapgw_kafka_messages_consumed_total', { topic: eventsTopic, type: 'unknown' }),
    ).toBe(1);
    expect(
      sampleOf(text, 'swapgw_kafka_messages_produced_total', {
        topic: deadLetterTopicOf(eventsTopic),
        type: 'unknown',
      }),
    ).toBe(1);
    // The requester runs in this process too, so its side is on the same registry.
    expect(
      sampleOf(text, 'swapgw_kafka_messages_produced_total', { topic: requestTopic, type: 'order.place' }),
    ).toBe(1);
    expect(
      sampleOf(text, 'swapgw_kafka_request_duration_seconds_count', {
        topic: requestTopic,
        type: 'order.place',
        outcome: 'ok',
      }),
    ).toBe(1);
    expect(text).toMatch(/^process_resident_memory_bytes\{service="[^"]+"\} \d+/m);

    // The dead letter was sent under a producer span too, child of the consumer span that parked it.
    const deadLetterSend = await waitFor(
      () =>
        readReceivedSpans(spansFile).find(
          (s) => s.name === `${deadLetterTopicOf(eventsTopic)} send` && s.kind === OtlpSpanKind.producer,
        ),
      { description: 'the dead-letter producer span', timeoutMs: 30_000 },
    );
    const parked = readReceivedSpans(spansFile).find((s) => s.spanId === deadLetterSend.parentSpanId);
    expect(parked).toMatchObject({ name: `${eventsTopic} process`, kind: OtlpSpanKind.consumer });

    // The same registry, pushed over OTLP/HTTP to /v1/metrics: the same counters, same values.
    await waitFor(
      () =>
        readReceivedMetrics(otlpMetricsFile).some(
          (m) =>
            m.service === service &&
            m.name === 'swapgw_kafka_dead_lettered_total' &&
            m.type === 'sum' &&
            m.points.some((p) => p.attributes.topic === eventsTopic && p.value === 1),
        ),
      { description: 'swapgw_kafka_dead_lettered_total at /v1/metrics', timeoutMs: 30_000 },
    );
    const exported = readReceivedMetrics(otlpMetricsFile);
    const requestDuration = exported.find(
      (m) => m.name === 'swapgw_kafka_request_duration_seconds' && m.points.length > 0,
    );
    expect(requestDuration?.type).toBe('histogram');
    expect(
      requestDuration!.points.find(
        (p) => p.attributes.topic === requestTopic && p.attributes.outcome === 'ok',
      ),
    ).toMatchObject({ count: 1 });

    // Sampled gauges: the outbox drained, and the group caught up on both topics.
    await waitFor(
      async () => {
        const body = await metrics();
        const lags = [0, 1].flatMap((partition) =>
          [requestTopic, eventsTopic].map((topic) =>
            sampleOf(body, 'swapgw_kafka_consumer_lag_messages', {
              group: groupId,
              topic,
              partition: String(partition),
            }),
          ),
        );
        return (
          sampleOf(body, 'swapgw_outbox_unpublished_messages', { schema }) === 0 &&
          lags.every((lag) => lag === 0)
        );
      },
      { description: 'outbox backlog 0 and consumer lag 0 on every partition', timeoutMs: 30_000 },
    );
  });
});
