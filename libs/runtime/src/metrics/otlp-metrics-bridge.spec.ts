import { Counter, Gauge, Histogram, Registry, Summary } from 'prom-client';
import { promClientMetricProducer } from './otlp-metrics-bridge';

// What the OTLP export of the registry carries: the /metrics series, one metric each, same values.
describe('promClientMetricProducer', () => {
  const registry = new Registry();
  registry.setDefaultLabels({ service: 'quote-service' });
  const produced = new Counter({
    name: 'swapgw_kafka_messages_produced_total',
    help: 'produced',
    labelNames: ['topic'],
    registers: [registry],
  });
  const backlog = new Gauge({
    name: 'swapgw_outbox_unpublished_messages',
    help: 'backlog',
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'swapgw_kafka_request_duration_seconds',
    help: 'latency',
    labelNames: ['outcome'],
    buckets: [0.1, 1],
    registers: [registry],
  });
  new Summary({ name: 'a_summary', help: 'left out', registers: [registry] }).observe(1);

  it('turns counters into monotonic sums, gauges into gauges, histograms into per-bucket counts', async () => {
    produced.inc({ topic: 'quote.requests' }, 3);
    backlog.set(7);
    for (const seconds of [0.05, 0.5, 0.7, 4]) latency.observe({ outcome: 'ok' }, seconds);

    const { resourceMetrics, errors } = await promClientMetricProducer(registry).collect();
    expect(errors).toEqual([]);
    const metrics = resourceMetrics.scopeMetrics[0].metrics;
    expect(metrics.map((m) => m.descriptor.name)).toEqual([
      'swapgw_kafka_messages_produced_total',
      'swapgw_outbox_unpublished_messages',
      'swapgw_kafka_request_duration_seconds',
    ]);
    const [sum, gauge, histogram] = metrics;
    expect(sum).toMatchObject({ dataPointType: 3, isMonotonic: true, aggregationTemporality: 1 });
    expect(sum.dataPoints.map((p) => [p.attributes, p.value])).toEqual([
      [{ topic: 'quote.requests', service: 'quote-service' }, 3],
    ]);
    expect(gauge).toMatchObject({ dataPointType: 2 });
    expect(gauge.dataPoints[0].value).toBe(7);
    expect(histogram).toMatchObject({ dataPointType: 0, descriptor: { unit: 's' } });
    expect(histogram.dataPoints).toHaveLength(1);
    expect(histogram.dataPoints[0].attributes).toEqual({ outcome: 'ok', service: 'quote-service' });
    expect(histogram.dataPoints[0].value).toEqual({
      buckets: { boundaries: [0.1, 1], counts: [1, 2, 1] },
      sum: 5.25,
      count: 4,
    });
  });
});
