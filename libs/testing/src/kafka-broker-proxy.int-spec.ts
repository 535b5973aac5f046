import { Kafka, logLevel } from 'kafkajs';
import { ProxiedKafkaBroker, startKafkaBrokerBehindProxy } from './kafka-broker';
import { waitFor } from './wait-for';

describe('a private Kafka broker behind a FaultProxy', () => {
  let kafka: ProxiedKafkaBroker;

  beforeAll(async () => {
    kafka = await startKafkaBrokerBehindProxy();
  }, 180_000);

  afterAll(async () => kafka?.stop(), 60_000);

  it('advertises the proxy, so every client connection goes through it and survives a cut', async () => {
    const { broker, proxy } = kafka;
    expect(broker.brokers).toBe(proxy.address);
    expect(broker.advertisedPort).toBe(proxy.port);
    expect(broker.port).not.toBe(proxy.port);

    const client = new Kafka({
      clientId: 'proxy-test',
      brokers: [broker.brokers],
      logLevel: logLevel.NOTHING,
      retry: { initialRetryTime: 100, retries: 10 },
    });
    const admin = client.admin();
    const producer = client.producer();
    const consumer = client.consumer({ groupId: 'proxy-test' });
    const received: string[] = [];
    try {
      await admin.connect();
      // The metadata names the proxy, not the port the broker listens on.
      const cluster = await admin.describeCluster();
      expect(cluster.brokers).toEqual([{ nodeId: 1, host: '127.0.0.1', port: proxy.port }]);
      await admin.createTopics({
        topics: [{ topic: 'proxy.check', numPartitions: 1 }],
        waitForLeaders: true,
      });
      await producer.connect();
      await consumer.connect();
      await consumer.subscribe({ topic: 'proxy.check', fromBeginning: true });
      await consumer.run({ eachMessage: async ({ message }) => void received.push(String(message.value)) });
      await producer.send({ topic: 'proxy.check', messages: [{ value: 'before the cut' }] });
      await waitFor(() => received.length === 1, { timeoutMs: 30_000, description: 'the first message' });

      // Admin, producer, consumer and its group coordinator: all of them came through the proxy.
      const before = proxy.stats();
      expect(before.active).toBeGreaterThanOrEqual(3);
      expect(proxy.cutConnections()).toBe(before.active);

      // kafkajs reconnects, again through the proxy (the only address it was ever given).
      await waitFor(
        async () => {
          await producer.send({ topic: 'proxy.check', messages: [{ value: 'after the cut' }] });
          return true;
        },
        { timeoutMs: 30_000, intervalMs: 500, description: 'a send after the cut' },
      );
      await waitFor(() => received.includes('after the cut'), {
        timeoutMs: 60_000,
        description: 'the message sent after the cut',
      });
      expect(received[0]).toBe('before the cut');
      expect(proxy.stats().accepted).toBeGreaterThan(before.accepted);
    } finally {
      await consumer.disconnect();
      await producer.disconnect();
      await admin.disconnect();
    }
  }, 180_000);
});
