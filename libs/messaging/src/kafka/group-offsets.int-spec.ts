import { Kafka, logLevel } from 'kafkajs';
import { produceRaw, testKafkaSettings, uniqueSuffix } from '../testing/messaging-test-support';
import { commitGroupOffsets } from './group-offsets';

describe('commitGroupOffsets (real Kafka)', () => {
  const settings = testKafkaSettings('group-offsets');
  const kafka = new Kafka({
    clientId: 'group-offsets',
    brokers: settings.brokers,
    logLevel: logLevel.NOTHING,
  });
  const admin = kafka.admin();

  beforeAll(() => admin.connect());
  afterAll(() => admin.disconnect());

  async function topicWith(partitions: number, messagesPerPartition: number): Promise<string> {
    const topic = `group-offsets-${uniqueSuffix()}`;
    await admin.createTopics({ topics: [{ topic, numPartitions: partitions }], waitForLeaders: true });
    for (let partition = 0; partition < partitions; partition++)
      await produceRaw(
        settings,
        topic,
        Array.from({ length: messagesPerPartition }, (_, n) => ({
          key: `k${n}`,
          value: `{"n":${n}}`,
          partition,
        })),
      );
    return topic;
  }

  it('commits a fresh group at the asked offsets of several topics at once, and its consumer reads from there', async () => {
    const [first, second] = [await topicWith(2, 4), await topicWith(1, 3)];
    const group = `group-offsets-${uniqueSuffix()}`;

    await commitGroupOffsets(kafka, admin, group, [
      {
        topic: first,
        partitions: [
          { partition: 0, offset: '4' },
          { partition: 1, offset: '1' },
        ],
      },
      { topic: second, partitions: [{ partition: 0, offset: '2' }] },
    ]);

    const offsets = await admin.fetchOffsets({ groupId: group, topics: [first, second] });
    expect(
      offsets
        .flatMap(({ topic, partitions }) => partitions.map((p) => `${topic}/${p.partition}@${p.offset}`))
        .sort(),
    ).toEqual([`${first}/0@4`, `${first}/1@1`, `${second}/0@2`].sort());
    // The committing member left: the group is empty, ready for its real consumer.
    const [described] = (await admin.describeGroups([group])).groups;
    expect(described.members).toEqual([]);

    // That consumer reads exactly what lies past the committed offsets.
    const consumer = kafka.consumer({ groupId: group, maxWaitTimeInMs: 100 });
    const read: string[] = [];
    await consumer.connect();
    try {
      await consumer.subscribe({ topics: [first, second] });
      await new Promise<void>((resolve, reject) => {
        consumer
          .run({
            eachMessage: async ({ topic, partition, message }) => {
              read.push(`${topic}/${partition}@${message.offset}`);
              if (read.length === 4) resolve();
            },
          })
          .catch(reject);
      });
    } finally {
      await consumer.disconnect();
    }
    expect(read.sort()).toEqual([`${first}/1@1`, `${first}/1@2`, `${first}/1@3`, `${second}/0@2`].sort());
  });

  it('does nothing for no partitions', async () => {
    const group = `group-offsets-${uniqueSuffix()}`;
    await commitGroupOffsets(kafka, admin, group, [{ topic: await topicWith(1, 1), partitions: [] }]);
    expect((await admin.describeGroups([group])).groups[0].state).toBe('Dead');
  });
});
