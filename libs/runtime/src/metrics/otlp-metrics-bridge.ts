import { Attributes, HrTime, ValueType } from '@opentelemetry/api';
import type {
  CollectionResult,
  DataPoint,
  Histogram,
  MetricData,
  MetricProducer,
} from '@opentelemetry/sdk-metrics';
import type { MetricObjectWithValues, MetricValue, Registry } from 'prom-client';

/**
 * The metrics of our prom-client registry, read at each OTLP export: one definition per metric (the
 * prom-client one, served on /metrics too), no second set of OTel instruments to keep in step.
 * Counters become monotonic cumulative sums, gauges gauges, histograms explicit-bucket histograms
 * (prom-client's cumulative buckets turned into per-bucket counts). Summaries have no OTLP
 * counterpart worth the translation (only prom-client's default GC metrics use none) and are left out.
 *
 * The values are those of /metrics at the same instant: a collector scraping both sees the same.
 */
export function promClientMetricProducer(registry: Registry, startedAt: HrTime = nowHr()): MetricProducer {
  return {
    async collect(): Promise<CollectionResult> {
      const now = nowHr();
      const metrics = (await registry.getMetricsAsJSON())
        .map((metric) => metricDataOf(metric, startedAt, now))
        .filter((data): data is MetricData => data !== undefined);
      return {
        // The MetricReader replaces the resource with its MeterProvider's (service.name).
        resourceMetrics: {
          resource: undefined as never,
          scopeMetrics: [{ scope: { name: 'swapgw/prom-client' }, metrics }],
        },
        errors: [],
      };
    },
  };
}

// Numeric enums of @opentelemetry/sdk-metrics, inlined so this module loads without the SDK.
const DataPointTypes = { histogram: 0, gauge: 2, sum: 3 } as const;
const CUMULATIVE = 1;

function metricDataOf(metric: MetricObjectWithValues<MetricValue<string>>, start: HrTime, end: HrTime) {
  const descriptor = {
    name: metric.name,
    description: metric.help,
    unit: unitOf(metric.name),
    valueType: ValueType.DOUBLE,
  };
  const point = <T>(attributes: Attributes, value: T): DataPoint<T> => ({
    startTime: start,
    endTime: end,
    attributes,
    value,
  });
  switch (String(metric.type)) {
    case 'counter':
      return {
        descriptor,
        aggregationTemporality: CUMULATIVE,
        dataPointType: DataPointTypes.sum,
        isMonotonic: true,
        dataPoints: metric.values.map((v) => point(v.labels, v.value)),
      } as MetricData;
    case 'gauge':
      return {
        descriptor,
        aggregationTemporality: CUMULATIVE,
        dataPointType: DataPointTypes.gauge,
        dataPoints: metric.values.map((v) => point(v.labels, v.value)),
      } as MetricData;
    case 'histogram':
      return {
        descriptor,
        aggregationTemporality: CUMULATIVE,
        dataPointType: DataPointTypes.histogram,
        dataPoints: histogramPoints(metric.name, metric.values).map(({ labels, value }) =>
          point(labels, value),
        ),
      } as MetricData;
    default:
      return undefined;
  }
}

/** prom-client lists a histogram as `_bucket` (cumulative, with `le`), `_sum` and `_count` series. */
function histogramPoints(
  name: string,
  values: Array<MetricValue<string> & { metricName?: string }>,
): Array<{ labels: Record<string, string | number>; value: Histogram }> {
  const series = new Map<
    string,
    { labels: Record<string, string | number>; le: Array<[number, number]>; sum: number; count: number }
  >();
  for (const value of values) {
    const { le, ...labels } = value.labels as Record<string, string | number>;
    const key = JSON.stringify(Object.entries(labels).sort(([a], [b]) => a.localeCompare(b)));
    let entry = series.get(key);
    if (!entry) series.set(key, (entry = { labels, le: [], sum: 0, count: 0 }));
    if (value.metricName === `${name}_bucket`) entry.le.push([Number(le), value.value]);
    else if (value.metricName === `${name}_sum`) entry.sum = value.value;
    else if (value.metricName === `${name}_count`) entry.count = value.value;
  }
  return [...series.values()].map(({ labels, le, sum, count }) => {
    const finite = le.filter(([bound]) => Number.isFinite(bound)).sort(([a], [b]) => a - b);
    const cumulative = [...finite.map(([, c]) => c), count];
    return {
      labels,
      value: {
        buckets: {
          boundaries: finite.map(([bound]) => bound),
          counts: cumulative.map((c, i) => c - (i === 0 ? 0 : cumulative[i - 1])),
        },
        sum,
        count,
      },
    };
  });
}

const unitOf = (name: string): string =>
  name.endsWith('_seconds') ? 's' : name.endsWith('_bytes') ? 'By' : '';

function nowHr(): HrTime {
  const ms = Date.now();
  return [Math.floor(ms / 1000), (ms % 1000) * 1e6];
}
