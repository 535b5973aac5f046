import { ClientKafka } from '@nestjs/microservices';
import type { KafkaOptions } from '@nestjs/microservices';
import type { Kafka, TopicPartitionOffsetAndMetadata } from 'kafkajs';
import type { Clock } from '@swapgw/runtime';
import { withSuiteProducers } from '../kafka/traced-producer';
import { ReplyClientLiveness, ReplyClientLivenessBounds } from './reply-client-liveness';

/**
 * How often the reply consumer commits what it read. Replies need no commit to be delivered (the
 * group's offsets are set to the end before it joins); a commit only bounds what a rejoin of the same
 * consumer reads again, so it is taken off the path of every reply (see `replyConsumerRunOptions`).
 */
const REPLY_OFFSETS_COMMIT_INTERVAL_MS = 5_000;

/**
 * kafkajs run options of the reply consumer. With autoCommit on, kafkajs ends every batch, i.e.
 * every partition of every fetch, with an offset commit (a broker round trip) before it fetches
 * again: with replies spread over 8 partitions that put up to 8 round trips behind each fetch. The
 * consumer commits on a timer instead (REPLY_OFFSETS_COMMIT_INTERVAL_MS).
 */
export const replyConsumerRunOptions = { autoCommit: false } as const;

/**
 * Nest's ClientKafka with a reply consumer group of its own per instance, which reads one partition
 * of each reply topic (ownReplyPartitionAssigner) and names it in each request, as Nest does with
 * the lowest partition assigned. It also reports to `liveness` what shows that its
 * connections are alive: fetches of the reply consumer, and sends the broker settled.
 */
export class PerInstanceReplyClientKafka extends ClientKafka {
  private joinedResolve: (() => void) | null = null;
  readonly joined = new Promise<void>((resolve) => (this.joinedResolve = resolve));
  readonly liveness: ReplyClientLiveness;
  /** Called when kafkajs gave up on the reply consumer for good (it will not restart it). */
  onFatalCrash: (() => void) | null = null;
  joinedGroup = false;
  /** Next offset to read per `topic:partition`, read but not committed yet. */
  private readonly uncommitted = new Map<string, TopicPartitionOffsetAndMetadata>();
  private commitTimer: NodeJS.Timeout | null = null;

  constructor(options: Required<KafkaOptions>['options'], bounds: ReplyClientLivenessBounds, clock: Clock) {
    super(options);
    this.liveness = new ReplyClientLiveness(bounds, clock);
  }

  protected override registerConsumerEventListeners(): void {
    super.registerConsumerEventListeners();
    const consumer = this.consumer;
    consumer.on(consumer.events.GROUP_JOIN, () => {
      this.joinedGroup = true;
      this.liveness.consumerProgressed();
      this.joinedResolve?.();
    });
    // A fetch starts at least every maxWaitTimeInMs while the consumer is alive, replies or not.
    const progressed = () => this.liveness.consumerProgressed();
    consumer.on(consumer.events.FETCH_START, progressed);
    consumer.on(consumer.events.FETCH, progressed);
    consumer.on(consumer.events.END_BATCH_PROCESS, ({ payload }) => {
      const next = (BigInt(payload.lastOffset) + 1n).toString();
      this.uncommitted.set(`${payload.topic}:${payload.partition}`, {
        topic: payload.topic,
        partition: payload.partition,
        offset: next,
      });
    });
    const left = () => (this.joinedGroup = false);
    consumer.on(consumer.events.REBALANCING, left);
    consumer.on(consumer.events.CRASH, (event) => {
      left();
      if (!event.payload.restart) this.onFatalCrash?.();
    });
    consumer.on(consumer.events.STOP, left);
    consumer.on(consumer.events.DISCONNECT, left);
    this.commitTimer = setInterval(
      () => void this.commitReadOffsets(),
      REPLY_OFFSETS_COMMIT_INTERVAL_MS,
    ).unref();
  }

  /** Kafka's client, its producer's sends traced (a producer span each: traced-producer.ts). */
  override async createClient<T = Kafka>(): Promise<T> {
    return withSuiteProducers(await super.createClient<Kafka>()) as T;
  }

  protected override registerProducerEventListeners(): void {
    super.registerProducerEventListeners();
    // Nest's publish hands each request to the producer and never surfaces the broker's answer:
    // wrapping send is the one place where a send that never settles can be seen.
    const producer = this.producer;
    const send = producer.send.bind(producer);
    producer.send = (record) => {
      const settled = this.liveness.sendStarted();
      return send(record).finally(settled);
    };
  }

  private async commitReadOffsets(): Promise<void> {
    if (this.uncommitted.size === 0 || !this.joinedGroup) return;
    const offsets = [...this.uncommitted.values()];
    try {
      await this.commitOffsets(offsets);
      // Keep what was read meanwhile for the next round.
      for (const o of offsets) {
        const key = `${o.topic}:${o.partition}`;
        if (this.uncommitted.get(key)?.offset === o.offset) this.uncommitted.delete(key);
      }
    } catch {
      // Kept for the next round; a commit only matters to a rejoin of this consumer.
    }
  }

  override async close(): Promise<void> {
    if (this.commitTimer) clearInterval(this.commitTimer);
    this.commitTimer = null;
    await super.close();
  }
}
