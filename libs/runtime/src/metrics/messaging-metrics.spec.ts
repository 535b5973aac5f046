import { messagingMetrics } from './messaging-metrics';
import { initProcessMetrics, metricsRegistry, renderMetrics } from './metrics-registry';

const valueOf = async (name: string, labels: Record<string, string>): Promise<number | undefined> => {
  const metric = await metricsRegistry().getSingleMetric(name)?.get();
  const found = metric?.values.find((v) =>
    Object.entries(labels).every(([k, value]) => String(v.labels[k]) === value),
  );
  return found?.value;
};

describe('messaging metrics', () => {
  it('counts produced and consumed messages by topic and type, unknown types under one label', async () => {
    messagingMetrics.produced('swap.commands', 'swap.build', 3);
    messagingMetrics.consumed('swap.commands', 'swap.build');
    messagingMetrics.consumed('swap.commands', undefined);
    expect(
      await valueOf('swapgw_kafka_messages_produced_total', { topic: 'swap.commands', type: 'swap.build' }),
    ).toBe(3);
    expect(
      await valueOf('swapgw_kafka_messages_consumed_total', { topic: 'swap.commands', type: 'swap.build' }),
    ).toBe(1);
    expect(
      await valueOf('swapgw_kafka_messages_consumed_total', { topic: 'swap.commands', type: 'unknown' }),
    ).toBe(1);
  });

  it('keeps request-reply outcomes apart in the latency histogram', async () => {
    messagingMetrics.requestReply('quote.requests', 'quote.create', 'ok', 0.2);
    messagingMetrics.requestReply('quote.requests', 'quote.create', 'timeout', 10);
    const text = await metricsRegistry().metrics();
    expect(text).toContain(
      'swapgw_kafka_request_duration_seconds_count{topic="quote.requests",type="quote.create",outcome="ok"} 1',
    );
    expect(text).toContain(
      'swapgw_kafka_request_duration_seconds_count{topic="quote.requests",type="quote.create",outcome="timeout"} 1',
    );
  });

  it('replaces the lag series of a group with each sample', async () => {
    messagingMetrics.consumerLag('planner', [
      { topic: 'swap.commands', partition: 0, lag: 5 },
      { topic: 'swap.commands', partition: 1, lag: 7 },
    ]);
    messagingMetrics.consumerLag('other', [{ topic: 'swap.commands', partition: 0, lag: 1 }]);
    messagingMetrics.consumerLag('planner', [{ topic: 'swap.commands', partition: 0, lag: 2 }]);
    const lag = (group: string, partition: string) =>
      valueOf('swapgw_kafka_consumer_lag_messages', { group, topic: 'swap.commands', partition });
    expect(await lag('planner', '0')).toBe(2);
    expect(await lag('planner', '1')).toBeUndefined();
    expect(await lag('other', '0')).toBe(1);
  });

  it('renders the Prometheus text format with the service label and the default process metrics', async () => {
    initProcessMetrics('quote-service');
    messagingMetrics.deadLettered('quote.requests');
    messagingMetrics.outboxBacklog('planner', 4);
    const { contentType, body } = await renderMetrics();
    expect(contentType).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(body).toContain(
      'swapgw_kafka_dead_lettered_total{topic="quote.requests",service="quote-service"} 1',
    );
    expect(body).toContain('swapgw_outbox_unpublished_messages{schema="planner",service="quote-service"} 4');
    expect(body).toMatch(/^process_cpu_user_seconds_total\{service="quote-service"\} \d/m);
  });
});
