import { randomUUID } from 'node:crypto';
import { Kafka, logLevel } from 'kafkajs';
import { replay, ReplayError } from './replay';

const brokers = (process.env.KAFKA_BROKERS ?? '127.0.0.1:19092').split(',');

describe('replay against a real broker', () => {
  const kafka = new Kafka({ clientId: 'replay-test', brokers, logLevel: logLevel.NOTHING });
  const topic = `replay-test-${randomUUID()}`;
  const group = `replay-test-group-${randomUUID()}`;
  const admin = kafka.admin();
  const producer = kafka.producer();

  beforeAll(async () => {
    await admin.connect();
    await producer.connect();
    await admin.createTopics({ topics: [{ topic, numPartitions: 2 }], waitForLeaders: true });
    await producer.send({
      topic,
      messages: Array.from({ length: 6 }, (_, i) => ({ key: `k${i % 2}`, value: `m${i}` })),
    });
  });

  afterAll(async () => {
    await producer.disconnect();
    await admin.deleteTopics({ topics: [topic] }).catch(() => undefined);
    await admin.disconnect();
  });

  async function consumeAll(expected: number): Promise<string[]> {
    const consumer = kafka.consumer({ groupId: group });
    const seen: string[] = [];
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: true });
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`saw ${seen.length} of ${expected}`)), 30000);
      void consumer.run({
        eachMessage: async ({ message }) => {
          seen.push(String(message.value));
          if (seen.length === expected) {
            clearTimeout(timer);
            resolve();
          }
        },
      });
    });
    await consumer.disconnect();
    return seen.sort();
  }

  it('rewinds an idle group so it reads the topic again', async () => {
    expect(await consumeAll(6)).toHaveLength(6);
    const result = await replay({ brokers, topic, group });
    expect(result.partitions.map((p) => p.offset)).toEqual(['0', '0']);
    expect(await consumeAll(6)).toEqual(['m0', 'm1', 'm2', 'm3', 'm4', 'm5']);
  });

  it('rewinds to a timestamp', async () => {
    const after = Date.now() + 60_000;
    const result = await replay({ brokers, topic, group, fromTimestampMs: after });
    // nothing was produced after that time: every partition points at its end
    const ends = await admin.fetchTopicOffsets(topic);
    expect(result.partitions.map((p) => p.offset).sort()).toEqual(ends.map((p) => p.high).sort());
  });

  it('refuses to move a group that has active members', async () => {
    const consumer = kafka.consumer({ groupId: group });
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: true });
    let joined = false;
    consumer.on(consumer.events.GROUP_JOIN, () => {
      joined = true;
    });
    await consumer.run({ eachMessage: async () => undefined });
    const deadline = Date.now() + 30000;
    while (!joined && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    try {
      await expect(replay({ brokers, topic, group })).rejects.toThrow(ReplayError);
    } finally {
      await consumer.disconnect();
    }
  });

  it('refuses an unknown topic', async () => {
    await expect(replay({ brokers, topic: `missing-${randomUUID()}`, group })).rejects.toThrow(
      /does not exist/,
    );
  });
});
