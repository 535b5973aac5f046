import { metricsRegistry } from '@swapgw/runtime';
import { serviceLivenessMetrics } from './service-liveness-metrics';

const lines = async () =>
  (await metricsRegistry().metrics()).split('\n').filter((l) => l.startsWith('swapgw_kafka_service_up{'));

describe('swapgw_kafka_service_up', () => {
  afterEach(() => serviceLivenessMetrics.readFrom(undefined));

  it('shows what this instance hears at the time of the scrape: 1 up, 0 down, nothing while unknown', async () => {
    let statuses = {
      'quote-service': 'up',
      'execution-planner': 'down',
      'signer-surface': 'unknown',
    } as const as Record<string, 'up' | 'down' | 'unknown'>;
    serviceLivenessMetrics.readFrom(() => statuses);
    expect(await lines()).toEqual([
      'swapgw_kafka_service_up{target="quote-service"} 1',
      'swapgw_kafka_service_up{target="execution-planner"} 0',
    ]);

    statuses = { 'quote-service': 'down', 'execution-planner': 'up', 'signer-surface': 'up' };
    expect(await lines()).toEqual([
      'swapgw_kafka_service_up{target="quote-service"} 0',
      'swapgw_kafka_service_up{target="execution-planner"} 1',
      'swapgw_kafka_service_up{target="signer-surface"} 1',
    ]);
  });

  it('has no series once the heartbeats stop being listened to (shutdown)', async () => {
    serviceLivenessMetrics.readFrom(() => ({ 'quote-service': 'up' }));
    expect(await lines()).toHaveLength(1);
    serviceLivenessMetrics.readFrom(undefined);
    expect(await lines()).toEqual([]);
  });
});
