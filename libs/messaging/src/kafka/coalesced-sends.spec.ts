import type { Producer, ProducerBatch, ProducerRecord, RecordMetadata } from 'kafkajs';
import { coalescedSends } from './coalesced-sends';

/** A kafkajs producer that records the requests it would make; `refuse` picks topics it fails. */
function recordingProducer(refuse: (topic: string) => boolean = () => false) {
  const requests: Array<{ kind: 'send' | 'batch'; topics: string[]; values: string[]; acks?: number }> = [];
  const metadataOf = (topic: string): RecordMetadata => ({ topicName: topic, partition: 0, errorCode: 0 });
  const producer = {
    send: async (record: ProducerRecord) => {
      requests.push({
        kind: 'send',
        topics: [record.topic],
        values: record.messages.map((m) => String(m.value)),
        acks: record.acks,
      });
      if (refuse(record.topic)) throw new Error(`no metadata for ${record.topic}`);
      return [metadataOf(record.topic)];
    },
    sendBatch: async (batch: ProducerBatch) => {
      const topics = (batch.topicMessages ?? []).map((t) => t.topic);
      requests.push({
        kind: 'batch',
        topics,
        values: (batch.topicMessages ?? []).flatMap((t) => t.messages.map((m) => String(m.value))),
        acks: batch.acks,
      });
      if (topics.some(refuse)) throw new Error('a topic of the batch has no metadata');
      return [...new Set(topics)].map(metadataOf);
    },
  };
  return { producer: coalescedSends(producer as unknown as Producer), requests };
}

const record = (topic: string, value: string, acks = -1): ProducerRecord => ({
  topic,
  acks,
  messages: [{ key: value, value }],
});

describe('coalescedSends', () => {
  it('sends the calls of one event-loop turn as one batch, in call order, and answers each caller its topic', async () => {
    const { producer, requests } = recordingProducer();
    const answers = await Promise.all([
      producer.send(record('quote.requests', 'q1')),
      producer.send(record('quote.requests.reply', 'r1')),
      producer.send(record('quote.requests', 'q2')),
    ]);
    expect(requests).toEqual([
      {
        kind: 'batch',
        topics: ['quote.requests', 'quote.requests.reply', 'quote.requests'],
        values: ['q1', 'r1', 'q2'],
        acks: -1,
      },
    ]);
    expect(answers.map((metadata) => metadata.map((m) => m.topicName))).toEqual([
      ['quote.requests'],
      ['quote.requests.reply'],
      ['quote.requests'],
    ]);
  });

  it('keeps sends with other acks apart, and a later turn in a request of its own', async () => {
    const { producer, requests } = recordingProducer();
    await Promise.all([producer.send(record('a', '1', -1)), producer.send(record('b', '2', 1))]);
    await producer.send(record('a', '3', -1));
    expect(requests).toEqual([
      { kind: 'send', topics: ['a'], values: ['1'], acks: -1 },
      { kind: 'send', topics: ['b'], values: ['2'], acks: 1 },
      { kind: 'send', topics: ['a'], values: ['3'], acks: -1 },
    ]);
  });

  it('fails only the caller whose send cannot be delivered when a batch fails', async () => {
    const { producer, requests } = recordingProducer((topic) => topic === 'missing');
    const outcomes = await Promise.allSettled([
      producer.send(record('swap.commands', 'c1')),
      producer.send(record('missing', 'x')),
      producer.send(record('swap.commands', 'c2')),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((outcomes[1] as PromiseRejectedResult).reason).toEqual(new Error('no metadata for missing'));
    // The batch, then each send alone.
    expect(requests.map((r) => `${r.kind}:${r.values.join(',')}`)).toEqual([
      'batch:c1,x,c2',
      'send:c1',
      'send:x',
      'send:c2',
    ]);
  });
});
