import { Producer, ProducerRecord, RecordMetadata } from 'kafkajs';

interface QueuedSend {
  record: ProducerRecord;
  resolve: (metadata: RecordMetadata[]) => void;
  reject: (error: unknown) => void;
}

/** Sends that may share one produce request: the same acks, timeout and compression. */
const batchKeyOf = (record: ProducerRecord): string =>
  `${record.acks ?? ''}|${record.timeout ?? ''}|${record.compression ?? ''}`;

/**
 * `producer.send` calls made in the same turn of the event loop leave as one `sendBatch`: one
 * produce request per broker instead of one per call. Under a burst, the gateway's request-reply
 * client sends a thousand requests and each responder a thousand replies within a few turns; one
 * request each cost the broker and the sender a request's parsing, a socket write and an
 * acknowledgement apiece (issue 44: the broker was the costliest process per swap).
 *
 * Each caller still gets its own outcome: its topic's metadata when the batch was acknowledged.
 * When a batch of several sends fails, each send is tried again alone, so a send that cannot be
 * delivered (a topic without metadata, a message too large) fails only its own caller. Order is
 * what it was: messages keep their call order within the batch, and separate batches may overtake
 * each other as separate sends always could (ordered streams go through the outbox relay, which
 * sends its own batches). `sendBatch` itself is left as it is.
 */
export function coalescedSends(producer: Producer): Producer {
  const send = producer.send.bind(producer);
  const sendBatch = producer.sendBatch.bind(producer);
  let queued: Map<string, QueuedSend[]> | null = null;

  const sendAlone = (queuedSend: QueuedSend) =>
    send(queuedSend.record).then(queuedSend.resolve, queuedSend.reject);

  const flush = () => {
    const batches = queued ?? new Map<string, QueuedSend[]>();
    queued = null;
    for (const sends of batches.values()) {
      if (sends.length === 1) {
        void sendAlone(sends[0]);
        continue;
      }
      const { acks, timeout, compression } = sends[0].record;
      sendBatch({
        acks,
        timeout,
        compression,
        topicMessages: sends.map(({ record }) => ({ topic: record.topic, messages: record.messages })),
      }).then(
        (metadata) => {
          for (const { record, resolve } of sends)
            resolve(metadata.filter((m) => m.topicName === record.topic));
        },
        () => {
          for (const queuedSend of sends) void sendAlone(queuedSend);
        },
      );
    }
  };

  producer.send = (record) =>
    new Promise<RecordMetadata[]>((resolve, reject) => {
      if (!queued) {
        queued = new Map();
        setImmediate(flush);
      }
      const key = batchKeyOf(record);
      const sends = queued.get(key) ?? [];
      sends.push({ record, resolve, reject });
      queued.set(key, sends);
    });
  return producer;
}
