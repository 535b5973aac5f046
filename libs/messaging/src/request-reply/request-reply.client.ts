import { Logger } from '@nestjs/common';
import { ClientKafka } from '@nestjs/microservices';
import { Kafka, Partitioners } from 'kafkajs';
import { firstValueFrom, timeout as rxTimeout, TimeoutError } from 'rxjs';
import { CodedError, ErrorCodes, replyTopicOf } from '@swapgw/contracts';
import { messagingMetrics, RequestReplyOutcome } from '@swapgw/runtime';
import { createEnvelope } from '../envelope/create-envelope';
import { contextHeaders } from '../envelope/message-headers';
import { CONSUMER_TIMINGS, kafkaClientConfig, KafkaSettings } from '../kafka/kafka-settings';
import { unwrapReply } from './reply-errors';

/**
 * Timeouts in a row, with no reply in between, after which the client is recycled: a reply consumer
 * or producer that kafkajs left hanging after a cut connection (seen under the Kafka fault proxy)
 * still looks joined, and would time out every request until the process restarts.
 */
const TIMEOUTS_BEFORE_RECYCLE = 3;
/** A hung client may never finish closing: the next one waits at most this long for it. */
const RETIRE_CLOSE_BOUND_MS = 10_000;

export interface RequestOptions {
  timeoutMs?: number;
  version?: number;
}

export interface RequestReplyClientOptions {
  defaultTimeoutMs?: number;
  /** Bound on waiting for the reply consumer to join its group at start. */
  connectTimeoutMs?: number;
}

/**
 * Nest's ClientKafka with a reply consumer group of its own per instance. Nest's default sends
 * every reply to the lowest reply partition assigned to the requester; we own every partition, so
 * replies are spread over all of them instead.
 */
class PerInstanceReplyClientKafka extends ClientKafka {
  private joinedResolve: (() => void) | null = null;
  readonly joined = new Promise<void>((resolve) => (this.joinedResolve = resolve));
  private assigned: Record<string, number[]> = {};
  /** Called when kafkajs gave up on the reply consumer for good (it will not restart it). */
  onFatalCrash: (() => void) | null = null;
  private nextPartition = 0;
  joinedGroup = false;

  protected override registerConsumerEventListeners(): void {
    super.registerConsumerEventListeners();
    const consumer = this.consumer;
    consumer.on(consumer.events.GROUP_JOIN, (event) => {
      this.assigned = event.payload.memberAssignment;
      this.joinedGroup = true;
      this.joinedResolve?.();
    });
    const left = () => (this.joinedGroup = false);
    consumer.on(consumer.events.REBALANCING, left);
    consumer.on(consumer.events.CRASH, (event) => {
      left();
      if (!event.payload.restart) this.onFatalCrash?.();
    });
    consumer.on(consumer.events.STOP, left);
    consumer.on(consumer.events.DISCONNECT, left);
  }

  protected override getReplyTopicPartition(topic: string): string {
    const partitions = this.assigned[topic];
    if (!partitions || partitions.length === 0) return super.getReplyTopicPartition(topic);
    this.nextPartition = (this.nextPartition + 1) % partitions.length;
    return String(partitions[this.nextPartition]);
  }
}

/**
 * Requester side of request-reply.
 *
 * Each instance consumes the reply topics in a consumer group of its own
 * (`<clientId>.replies.<instanceId>`) and picks replies by correlation id. With a shared group,
 * every rebalance (an instance starting, stopping or restarting) moves reply partitions to another
 * instance while requests are in flight, and their replies are lost; and instances could never
 * outnumber reply partitions. A group per instance avoids both at the cost of every instance
 * reading every reply, which is cheap at request-reply volumes (small replies, a few instances).
 * Before the group first joins, its offsets are set to the end of each reply partition, so a reply
 * produced after `connect()` resolves can never be skipped by an "earliest/latest" reset race.
 */
export class RequestReplyClient {
  private readonly logger = new Logger(RequestReplyClient.name);
  private client: PerInstanceReplyClientKafka | null = null;
  private connecting: Promise<void> | null = null;
  private readonly defaultTimeoutMs: number;
  private readonly connectTimeoutMs: number;
  private timeoutsInARow = 0;
  /** The close of a retired client: its group must be empty before the next client resets offsets. */
  private retiring: Promise<void> = Promise.resolve();
  readonly groupId: string;

  constructor(
    private readonly settings: KafkaSettings,
    readonly requestTopics: readonly string[],
    options: RequestReplyClientOptions = {},
  ) {
    this.defaultTimeoutMs = options.defaultTimeoutMs ?? 10_000;
    this.connectTimeoutMs = options.connectTimeoutMs ?? 30_000;
    this.groupId = `${settings.clientId}.replies.${settings.instanceId}`;
  }

  /** True once the reply consumer joined its group: only then can replies be received. */
  isReady(): boolean {
    return this.client?.joinedGroup === true;
  }

  /** Connects and resolves once the reply consumer joined; rejects after connectTimeoutMs. */
  connect(): Promise<void> {
    if (!this.connecting) {
      this.connecting = this.connectOnce().catch(async (error) => {
        const client = this.client;
        this.client = null;
        this.connecting = null;
        await client?.close().catch(() => undefined);
        throw error;
      });
    }
    return this.connecting;
  }

  private async connectOnce(): Promise<void> {
    await this.retiring;
    const replyTopics = this.requestTopics.map(replyTopicOf);
    await this.startAtEndOfReplyTopics(replyTopics);
    const client = new PerInstanceReplyClientKafka({
      postfixId: '',
      client: kafkaClientConfig({ ...this.settings, clientId: `${this.settings.clientId}-${this.settings.instanceId}-rr` }),
      consumer: { groupId: this.groupId, allowAutoTopicCreation: false, ...CONSUMER_TIMINGS },
      producer: { allowAutoTopicCreation: false, createPartitioner: Partitioners.DefaultPartitioner },
      send: { acks: -1 },
    });
    for (const topic of this.requestTopics) client.subscribeToResponseOf(topic);
    // After a fatal consumer crash (e.g. no group coordinator after a broker restart) the next
    // request connects a new client instead of waiting on a consumer that will never rejoin.
    client.onFatalCrash = () => {
      if (this.client !== client) return;
      this.logger.warn({ msg: 'reply consumer crashed for good; the next request reconnects', groupId: this.groupId });
      this.retire(client);
    };
    this.client = client;
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        client.connect().then(() => client.joined),
        new Promise<never>((_, reject) => {
          timer = setTimeout(
            () => reject(new Error(`reply consumer ${this.groupId} did not join within ${this.connectTimeoutMs} ms`)),
            this.connectTimeoutMs,
          );
        }),
      ]);
    } finally {
      clearTimeout(timer);
    }
    this.logger.log({ msg: 'request-reply client ready', groupId: this.groupId, requestTopics: this.requestTopics });
  }

  private async startAtEndOfReplyTopics(replyTopics: string[]): Promise<void> {
    // Few retries: connect() is retried by every request while Kafka is away, and a long retry
    // loop here would keep a shutting-down process alive.
    const kafka = new Kafka(
      kafkaClientConfig(
        { ...this.settings, clientId: `${this.settings.clientId}-rr-admin` },
        { retry: { initialRetryTime: 300, maxRetryTime: 2000, retries: 3 } },
      ),
    );
    const admin = kafka.admin();
    await admin.connect();
    try {
      for (const topic of replyTopics) {
        const offsets = await admin.fetchTopicOffsets(topic);
        await admin.setOffsets({
          groupId: this.groupId,
          topic,
          partitions: offsets.map((o) => ({ partition: o.partition, offset: o.high })),
        });
      }
    } finally {
      await admin.disconnect();
    }
  }

  /**
   * Sends `type` on `topic` and waits for the reply. Resolves with the reply's data; throws the
   * responder's CodedError for an error reply, and SERVICE_UNAVAILABLE when no reply comes in time
   * or Kafka cannot be reached.
   */
  async request<T>(topic: string, type: string, aggregateId: string, payload: unknown, options: RequestOptions = {}): Promise<T> {
    const timeoutMs = options.timeoutMs ?? this.defaultTimeoutMs;
    if (!this.requestTopics.includes(topic)) {
      throw new Error(`RequestReplyClient was not configured to send to ${topic} (requestTopics)`);
    }
    const startedAt = Date.now();
    const observe = (outcome: RequestReplyOutcome) => messagingMetrics.requestReply(topic, type, outcome, (Date.now() - startedAt) / 1000);
    let client: ClientKafka;
    try {
      client = await this.readyClient(timeoutMs, topic, type);
    } catch (error) {
      observe('unavailable');
      throw error;
    }
    const envelope = createEnvelope(type, aggregateId, payload, options.version ?? 1);
    const remainingMs = Math.max(1, timeoutMs - (Date.now() - startedAt));
    let reply: unknown;
    try {
      // Counted when handed to the producer: Nest's ClientKafka does not surface the broker's ack.
      messagingMetrics.produced(topic, type);
      reply = await firstValueFrom(
        client.send(topic, { key: aggregateId, value: envelope, headers: contextHeaders() }).pipe(rxTimeout(remainingMs)),
      );
    } catch (error) {
      const timedOut = error instanceof TimeoutError;
      observe(timedOut ? 'timeout' : 'unavailable');
      if (timedOut) this.noteTimeout(client);
      this.logger.warn({ msg: timedOut ? 'request timed out' : 'request failed', topic, type, aggregateId, timeoutMs, error: (error as Error)?.message });
      throw new CodedError(
        ErrorCodes.SERVICE_UNAVAILABLE,
        timedOut ? `No answer to ${type} within ${timeoutMs} ms` : `Could not send ${type}: messaging unavailable`,
        { topic, type },
      );
    }
    this.timeoutsInARow = 0;
    messagingMetrics.consumed(replyTopicOf(topic), type);
    try {
      const data = unwrapReply<T>(reply, topic, type);
      observe('ok');
      return data;
    } catch (error) {
      observe('error');
      throw error;
    }
  }

  /** Recycles the client after TIMEOUTS_BEFORE_RECYCLE timeouts in a row: the next request reconnects. */
  private noteTimeout(client: ClientKafka): void {
    this.timeoutsInARow += 1;
    if (this.timeoutsInARow < TIMEOUTS_BEFORE_RECYCLE || this.client !== client) return;
    this.timeoutsInARow = 0;
    this.logger.warn({ msg: `no reply to ${TIMEOUTS_BEFORE_RECYCLE} requests in a row; reconnecting the request-reply client`, groupId: this.groupId });
    this.retire(client);
  }

  /** Drops `client`; the next request connects a new one once this one has left the group (bounded). */
  private retire(client: ClientKafka): void {
    this.client = null;
    this.connecting = null;
    let timer: NodeJS.Timeout | undefined;
    this.retiring = Promise.race([
      client.close().catch(() => undefined),
      new Promise<void>((resolve) => (timer = setTimeout(resolve, RETIRE_CLOSE_BOUND_MS))),
    ]).finally(() => clearTimeout(timer));
  }

  private async readyClient(timeoutMs: number, topic: string, type: string): Promise<ClientKafka> {
    if (this.client && this.isReady()) return this.client;
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        this.connect(),
        new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('not connected in time')), timeoutMs))),
      ]);
    } catch (error) {
      throw new CodedError(ErrorCodes.SERVICE_UNAVAILABLE, `Messaging unavailable for ${type}`, { topic, type, cause: (error as Error).message });
    } finally {
      clearTimeout(timer);
    }
    if (!this.client) throw new CodedError(ErrorCodes.SERVICE_UNAVAILABLE, `Messaging unavailable for ${type}`, { topic, type });
    return this.client;
  }

  /** Leaves the group and removes it: a per-instance group has no use after the instance stops. */
  async close(): Promise<void> {
    const client = this.client;
    this.client = null;
    this.connecting = null;
    if (!client) return;
    await client.close();
    const kafka = new Kafka(kafkaClientConfig({ ...this.settings, clientId: `${this.settings.clientId}-rr-admin` }, { retry: { retries: 1 } }));
    const admin = kafka.admin();
    try {
      await admin.connect();
      await admin.deleteGroups([this.groupId]);
    } catch (error) {
      this.logger.warn({ msg: 'could not delete the reply consumer group', groupId: this.groupId, error: (error as Error).message });
    } finally {
      await admin.disconnect().catch(() => undefined);
    }
  }
}
