import { Kafka, logLevel } from 'kafkajs';
import { metricsRegistry } from '@swapgw/runtime';
import { laneGroupIdOf } from '../kafka/key-ordered-kafka-server';
import { produceRaw, testKafkaSettings, uniqueSuffix } from '../testing/messaging-test-support';
import { ConsumerLagSampler } from './consumer-lag-sampler';

// An app's consumer lanes commit in groups of their own (quote-service's checks in
// quote-service-checks): their lag is sampled with the app's group, each from its own offsets.
describe('ConsumerLagSampler (real Kafka)', () => {
  const settings = testKafkaSettings('lag-sampler');
  const kafka = new Kafka({
    clientId: 'lag-sampler-admin',
    brokers: settings.brokers,
    logLevel: logLevel.NOTHING,
  });
  const admin = kafka.admin();

  beforeAll(() => admin.connect());
  afterAll(() => admin.disconnect());

  async function lagOf(group: string, topic: string): Promise<number | undefined> {
    const metric = await metricsRegistry().getSingleMetric('swapgw_kafka_consumer_lag_messages')?.get();
    return metric?.values.find(
      (v) => v.labels.group === group && v.labels.topic === topic && v.labels.partition === '0',
    )?.value;
  }

  it("samples the app's group and its lanes' groups, each at its own committed offsets", async () => {
    const topic = `lag-sampler-${uniqueSuffix()}`;
    await admin.createTopics({ topics: [{ topic, numPartitions: 1 }], waitForLeaders: true });
    await produceRaw(
      settings,
      topic,
      Array.from({ length: 5 }, (_, n) => ({ key: `k${n}`, value: `{"n":${n}}` })),
    );
    const group = `lag-app-${uniqueSuffix()}`;
    const laneGroup = laneGroupIdOf(group, { name: 'checks' });
    expect(laneGroup).toBe(`${group}-checks`);
    await admin.setOffsets({ groupId: group, topic, partitions: [{ partition: 0, offset: '5' }] });
    await admin.setOffsets({ groupId: laneGroup, topic, partitions: [{ partition: 0, offset: '2' }] });

    const sampler = new ConsumerLagSampler(settings, [group, laneGroup], 60_000);
    try {
      await sampler.sample();
    } finally {
      await sampler.stop();
    }

    expect(await lagOf(group, topic)).toBe(0);
    expect(await lagOf(laneGroup, topic)).toBe(3);
  });
});
