import type { Admin, Kafka } from 'kafkajs';

/** Where a consumer group is to start: per topic, per partition, the offset of its next read. */
export interface TopicOffsets {
  topic: string;
  partitions: { partition: number; offset: string }[];
}

/**
 * How long the committing member's fetches wait. Its topics are paused, so a fetch has nothing to
 * read and waits its whole maxWaitTime before the loop goes round (kafkajs's default is 5 s).
 */
const COMMITTING_FETCH_WAIT_MS = 50;

/** Members tried in turn when one crashes (a coordinator still loading on a broker that just started). */
const COMMIT_ATTEMPTS = 5;

/**
 * Commits `offsets` for `groupId`, every topic in one go, for a group with no member (a fresh one,
 * or one whose consumers are stopped): a short-lived member joins, seeks every partition (kafkajs
 * commits a seek at once), and leaves once the group's committed offsets read back as asked.
 *
 * kafkajs's `admin.setOffsets` does the same a topic at a time and waits out a whole fetch for each
 * (its 5 s default maxWaitTime, the topic paused): the gateway's request-reply client, with six
 * reply topics, took 31 s to start and as long to recycle. Here: one join and a fetch of 50 ms.
 */
export async function commitGroupOffsets(
  kafka: Kafka,
  admin: Admin,
  groupId: string,
  offsets: TopicOffsets[],
  timeoutMs = 30_000,
): Promise<void> {
  const wanted = offsets.filter((t) => t.partitions.length > 0);
  if (wanted.length === 0) return;
  const deadline = Date.now() + timeoutMs;
  for (let attempt = 1; ; attempt++) {
    try {
      return await commitOnce(kafka, admin, groupId, wanted, deadline - Date.now());
    } catch (error) {
      // A coordinator still loading (a broker that just started) crashes the member: a new one
      // tries again, a few times, within the deadline.
      const pauseMs = 200 * attempt;
      if (attempt >= COMMIT_ATTEMPTS || Date.now() + pauseMs >= deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, pauseMs));
    }
  }
}

/** One member joins, seeks every partition, and leaves once the commits read back as asked. */
async function commitOnce(
  kafka: Kafka,
  admin: Admin,
  groupId: string,
  wanted: TopicOffsets[],
  timeoutMs: number,
): Promise<void> {
  const consumer = kafka.consumer({
    groupId,
    maxWaitTimeInMs: COMMITTING_FETCH_WAIT_MS,
    allowAutoTopicCreation: false,
    // A crash ends this member (the seeks it holds die with it); commitGroupOffsets starts another.
    retry: { retries: 2, restartOnFailure: async () => false },
  });
  let timer: NodeJS.Timeout | undefined;
  await consumer.connect();
  try {
    await consumer.subscribe({ topics: wanted.map((t) => t.topic), fromBeginning: true });
    await new Promise<void>((resolve, reject) => {
      timer = setTimeout(
        () => reject(new Error(`offsets of group ${groupId} not committed within ${timeoutMs} ms`)),
        timeoutMs,
      );
      let checking = false;
      // Seeks are committed at the start of a fetch, broker by broker: after each fetch, read back.
      consumer.on(consumer.events.FETCH, () => {
        if (checking) return;
        checking = true;
        void committedAsAsked(admin, groupId, wanted)
          .then((done) => done && resolve(), reject)
          .finally(() => {
            checking = false;
          });
      });
      consumer.on(consumer.events.CRASH, ({ payload }) => reject(payload.error));
      consumer.run({ eachBatchAutoResolve: false, eachBatch: async () => undefined }).catch(reject);
      // run() set up the member synchronously: it can pause and seek before it has joined.
      consumer.pause(wanted.map(({ topic }) => ({ topic })));
      for (const { topic, partitions } of wanted)
        for (const { partition, offset } of partitions) consumer.seek({ topic, partition, offset });
    });
  } finally {
    clearTimeout(timer);
    await consumer.disconnect();
  }
}

async function committedAsAsked(admin: Admin, groupId: string, wanted: TopicOffsets[]): Promise<boolean> {
  const read = await admin.fetchOffsets({ groupId, topics: wanted.map((t) => t.topic) });
  const committed = new Map(
    read.flatMap(({ topic, partitions }) =>
      partitions.map((p) => [`${topic}/${p.partition}`, p.offset] as const),
    ),
  );
  return wanted.every(({ topic, partitions }) =>
    partitions.every(({ partition, offset }) => committed.get(`${topic}/${partition}`) === offset),
  );
}
