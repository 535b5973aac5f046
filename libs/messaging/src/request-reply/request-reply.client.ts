import { randomBytes } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { Admin, Kafka, KafkaConfig, Partitioners } from 'kafkajs';
import { Observable, Subscription } from 'rxjs';
import { CodedError, ErrorCodes, replyTopicOf } from '@swapgw/contracts';
import { Clock, messagingMetrics, RequestReplyOutcome } from '@swapgw/runtime';
import { createEnvelope } from '../envelope/create-envelope';
import { contextHeaders } from '../envelope/message-headers';
import { CONSUMER_TIMINGS, kafkaClientConfig, KafkaSettings } from '../kafka/kafka-settings';
import { commitGroupOffsets } from '../kafka/group-offsets';
import { ownReplyPartitionAssigner } from './own-reply-partition';
import { PerInstanceReplyClientKafka, replyConsumerRunOptions } from './per-instance-reply-client';
import { ReplyClientLivenessBounds } from './reply-client-liveness';
import { unwrapReply } from './reply-errors';

/**
 * The reply consumer's long poll: the broker answers a fetch after this long even when no reply
 * came, so a live consumer starts a fetch at least this often (what its liveness is judged by).
 */
const REPLY_FETCH_MAX_WAIT_MS = 1_000;

/**
 * When a client counts as dead and is replaced. The consumer bound is many fetch periods, so a
 * live consumer on a loaded broker never reaches it; the producer bound is kafkajs's request
 * timeout plus a margin, after which a send that neither succeeded nor failed is stuck.
 */
const DEFAULT_LIVENESS_BOUNDS: ReplyClientLivenessBounds = {
  consumerStallMs: 10_000,
  producerStallMs: 35_000,
};

/** Logged (warn) each time a client is replaced; bench/src/support/request-reply-recycles.ts counts it. */
const DEAD_CLIENT_LOG = 'request-reply client is dead; the next request connects a new one';

/** A dead client may never finish closing: its group is deleted after at most this long. */
const RETIRE_CLOSE_BOUND_MS = 10_000;

/**
 * A group whose dead member did not leave cannot be deleted until the broker expels the member
 * (after the session timeout): one more attempt then.
 */
const LEFTOVER_GROUP_RETRY_MS = CONSUMER_TIMINGS.sessionTimeout + 5_000;

/** kafkajs's KafkaJSDeleteGroupsError lists the error of each group it could not delete. */
function isGroupNotFound(error: unknown): boolean {
  const groups = (error as { groups?: Array<{ error?: { type?: string } }> }).groups;
  return !!groups && groups.length > 0 && groups.every((g) => g.error?.type === 'GROUP_ID_NOT_FOUND');
}

export interface RequestOptions {
  timeoutMs?: number;
  version?: number;
  /**
   * Past `timeoutMs`, the wait goes on while `stillWaiting()` holds (asked every
   * WAIT_LONGER_CHECK_MS), up to `upToMs` in all: a responder known to be alive but busy answers
   * late rather than not at all, while one that is away still fails after `timeoutMs`.
   */
  waitLonger?: WaitLonger;
}

export interface WaitLonger {
  stillWaiting: () => boolean;
  upToMs: number;
}

/** How often a wait past its timeout asks whether it is still worth waiting. */
export const WAIT_LONGER_CHECK_MS = 1_000;

/** No reply within the request's bound (its timeoutMs, and any longer wait it allowed). */
class ReplyTimeout extends Error {
  constructor(readonly waitedMs: number) {
    super(`no reply within ${waitedMs} ms`);
  }
}

export interface RequestReplyClientOptions {
  defaultTimeoutMs?: number;
  /** Bound on waiting for the reply consumer to join its group at start. */
  connectTimeoutMs?: number;
  /** When the client counts as dead (defaults: consumer 10 s without a fetch, a send stuck 35 s). */
  liveness?: Partial<ReplyClientLivenessBounds>;
  /** Merged into the kafkajs config of the reply consumer and producer (e.g. a socketFactory). */
  kafkaConfig?: Partial<KafkaConfig>;
}

/**
 * Requester side of request-reply.
 *
 * Each instance consumes the reply topics in a consumer group of its own
 * (`<clientId>.replies.<instanceId>.<generation>`) and picks replies by correlation id. With a
 * shared group, every rebalance (an instance starting, stopping or restarting) moves reply
 * partitions to another instance while requests are in flight, and their replies are lost; and
 * instances could never outnumber reply partitions. A group per instance avoids both; it reads one
 * partition of each reply topic, picked from the instance id (ownReplyPartitionAssigner), and names
 * it in its requests. Before the group first joins, its offsets are set to the end of each reply partition,
 * so a reply produced after `connect()` resolves can never be skipped by an "earliest/latest" reset
 * race.
 *
 * A client whose connections are dead is replaced by a new one in a new group (a new generation):
 * see `recycleIfDead`. Timeouts alone never replace it: slow responders are not a dead connection.
 */
export class RequestReplyClient {
  private readonly logger = new Logger(RequestReplyClient.name);
  private client: PerInstanceReplyClientKafka | null = null;
  private connecting: Promise<void> | null = null;
  private readonly defaultTimeoutMs: number;
  private readonly connectTimeoutMs: number;
  private readonly livenessBounds: ReplyClientLivenessBounds;
  private readonly groupPrefix: string;
  private generation = 0;
  private currentGroupId: string;
  /** Closing clients, awaited by close(). */
  private readonly retirements = new Set<Promise<void>>();
  /** Groups of retired clients that could not be deleted yet. */
  private readonly leftoverGroups = new Set<string>();
  private leftoverTimer: NodeJS.Timeout | null = null;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(
    private readonly settings: KafkaSettings,
    readonly requestTopics: readonly string[],
    /** Times each request's wait (timeoutMs, waitLonger), stamps its envelope and judges liveness. */
    private readonly clock: Clock,
    private readonly options: RequestReplyClientOptions = {},
  ) {
    this.defaultTimeoutMs = options.defaultTimeoutMs ?? 10_000;
    this.connectTimeoutMs = options.connectTimeoutMs ?? 30_000;
    this.livenessBounds = { ...DEFAULT_LIVENESS_BOUNDS, ...options.liveness };
    this.groupPrefix = `${settings.clientId}.replies.${settings.instanceId}`;
    this.currentGroupId = this.nextGroupId();
  }

  /** The reply consumer group of the current client generation. */
  get groupId(): string {
    return this.currentGroupId;
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

  /**
   * A fresh group per generation, so a new client never waits for a dead one to leave its group
   * (setting offsets needs an empty group, and a member that never left holds it for the session
   * timeout); the random part keeps a restarted process with the same INSTANCE_ID off a group that
   * a killed predecessor may still hold.
   */
  private nextGroupId(): string {
    this.generation += 1;
    return `${this.groupPrefix}.${this.generation}-${randomBytes(3).toString('hex')}`;
  }

  private async connectOnce(): Promise<void> {
    const groupId = this.currentGroupId;
    const replyTopics = this.requestTopics.map(replyTopicOf);
    await this.startAtEndOfReplyTopics(groupId, replyTopics);
    const client = new PerInstanceReplyClientKafka(
      {
        postfixId: '',
        client: kafkaClientConfig(
          { ...this.settings, clientId: `${this.settings.clientId}-${this.settings.instanceId}-rr` },
          this.options.kafkaConfig,
        ),
        consumer: {
          groupId,
          allowAutoTopicCreation: false,
          ...CONSUMER_TIMINGS,
          maxWaitTimeInMs: REPLY_FETCH_MAX_WAIT_MS,
          partitionAssigners: [ownReplyPartitionAssigner(this.settings.instanceId)],
        },
        run: { ...replyConsumerRunOptions },
        producer: { allowAutoTopicCreation: false, createPartitioner: Partitioners.DefaultPartitioner },
        send: { acks: -1 },
      },
      this.livenessBounds,
      this.clock,
    );
    for (const topic of this.requestTopics) client.subscribeToResponseOf(topic);
    // After a fatal consumer crash (e.g. no group coordinator after a broker restart) the next
    // request connects a new client instead of waiting on a consumer that will never rejoin.
    client.onFatalCrash = () => {
      if (this.client !== client) return;
      this.logger.warn({
        msg: DEAD_CLIENT_LOG,
        reason: 'the reply consumer crashed and kafkajs will not restart it',
        groupId,
      });
      this.retire(client);
    };
    this.client = client;
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        client.connect().then(() => client.joined),
        new Promise<never>((_, reject) => {
          timer = setTimeout(
            () =>
              reject(new Error(`reply consumer ${groupId} did not join within ${this.connectTimeoutMs} ms`)),
            this.connectTimeoutMs,
          );
        }),
      ]);
    } finally {
      clearTimeout(timer);
    }
    this.logger.log({ msg: 'request-reply client ready', groupId, requestTopics: this.requestTopics });
  }

  /** An admin client for one short task. */
  private async withAdmin<T>(retries: number, task: (admin: Admin, kafka: Kafka) => Promise<T>): Promise<T> {
    // Few retries: connect() is retried by every request while Kafka is away, and a long retry
    // loop here would keep a shutting-down process alive.
    const kafka = new Kafka(
      kafkaClientConfig(
        { ...this.settings, clientId: `${this.settings.clientId}-rr-admin` },
        { retry: { initialRetryTime: 300, maxRetryTime: 2000, retries } },
      ),
    );
    const admin = kafka.admin();
    try {
      await admin.connect();
      return await task(admin, kafka);
    } finally {
      await admin.disconnect().catch(() => undefined);
    }
  }

  private startAtEndOfReplyTopics(groupId: string, replyTopics: string[]): Promise<void> {
    return this.withAdmin(3, async (admin, kafka) => {
      const ends = await Promise.all(
        replyTopics.map(async (topic) => ({
          topic,
          partitions: (await whileLeadershipSettles(() => admin.fetchTopicOffsets(topic))).map((o) => ({
            partition: o.partition,
            offset: o.high,
          })),
        })),
      );
      await commitGroupOffsets(kafka, admin, groupId, ends);
    });
  }

  /**
   * Sends `type` on `topic` and waits for the reply. Resolves with the reply's data; throws the
   * responder's CodedError for an error reply, and SERVICE_UNAVAILABLE when no reply comes in time
   * or Kafka cannot be reached.
   */
  async request<T>(
    topic: string,
    type: string,
    aggregateId: string,
    payload: unknown,
    options: RequestOptions = {},
  ): Promise<T> {
    const timeoutMs = options.timeoutMs ?? this.defaultTimeoutMs;
    if (!this.requestTopics.includes(topic)) {
      throw new Error(`RequestReplyClient was not configured to send to ${topic} (requestTopics)`);
    }
    const startedAt = this.clock.nowMs();
    const elapsedMs = () => this.clock.nowMs() - startedAt;
    const observe = (outcome: RequestReplyOutcome) =>
      messagingMetrics.requestReply(topic, type, outcome, elapsedMs() / 1000);
    let client: PerInstanceReplyClientKafka;
    try {
      client = await this.readyClient(timeoutMs, topic, type);
    } catch (error) {
      observe('unavailable');
      throw error;
    }
    const envelope = createEnvelope(type, aggregateId, payload, this.clock, options.version ?? 1);
    const remainingMs = Math.max(1, timeoutMs - elapsedMs());
    let reply: unknown;
    try {
      // Counted when handed to the producer: Nest's ClientKafka does not surface the broker's ack.
      messagingMetrics.produced(topic, type);
      reply = await firstReplyWithin(
        client.send(topic, { key: aggregateId, value: envelope, headers: contextHeaders() }),
        remainingMs,
        this.clock,
        options.waitLonger && {
          ...options.waitLonger,
          upToMs: Math.max(1, options.waitLonger.upToMs - elapsedMs()),
        },
      );
    } catch (error) {
      const timedOut = error instanceof ReplyTimeout;
      observe(timedOut ? 'timeout' : 'unavailable');
      if (timedOut) this.recycleIfDead(client);
      this.logger.warn({
        msg: timedOut ? 'request timed out' : 'request failed',
        topic,
        type,
        aggregateId,
        timeoutMs,
        error: (error as Error)?.message,
      });
      throw new CodedError(
        ErrorCodes.SERVICE_UNAVAILABLE,
        timedOut
          ? `No answer to ${type} within ${elapsedMs()} ms`
          : `Could not send ${type}: messaging unavailable`,
        { topic, type },
      );
    }
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

  /**
   * Replaces `client` when it shows evidence of dead connections (ReplyClientLiveness): a reply
   * consumer that stopped fetching, or a send the broker never settled. Checked when a request starts
   * and when one times out, i.e. only while requests are waiting. kafkajs can leave such a client
   * behind after a cut connection (seen under the Kafka fault proxy): it still looks joined and
   * would time out every request until the process restarts.
   */
  private recycleIfDead(client: PerInstanceReplyClientKafka): void {
    if (this.client !== client) return;
    const reason = client.liveness.deadReason();
    if (!reason) return;
    this.logger.warn({ msg: DEAD_CLIENT_LOG, reason, groupId: this.currentGroupId });
    this.retire(client);
  }

  /** Drops `client`; the next request connects a new one in a new group, without waiting for this one. */
  private retire(client: PerInstanceReplyClientKafka): void {
    const retiredGroup = this.currentGroupId;
    this.client = null;
    this.connecting = null;
    this.currentGroupId = this.nextGroupId();
    let timer: NodeJS.Timeout | undefined;
    const retirement = Promise.race([
      client.close().catch(() => undefined),
      new Promise<void>((resolve) => (timer = setTimeout(resolve, RETIRE_CLOSE_BOUND_MS))),
    ])
      .finally(() => clearTimeout(timer))
      .then(() => this.deleteGroups([retiredGroup]))
      .then((undeleted) => this.retryLater(undeleted))
      .finally(() => this.retirements.delete(retirement));
    this.retirements.add(retirement);
    this.reconnectInBackground();
  }

  /**
   * The replacement connects at once, in the background, retrying with back-off until it joins:
   * a request that comes later finds it ready (and readiness checks see when it is) instead of
   * paying the whole connection and group join within its own timeout.
   */
  private reconnectInBackground(attempt = 1): void {
    if (this.closed || this.reconnectTimer) return;
    this.connect().catch((error: Error) => {
      if (this.closed) return;
      const delayMs = Math.min(10_000, 500 * 2 ** Math.min(attempt - 1, 5));
      this.logger.warn({
        msg: 'request-reply client not connected yet; retrying',
        attempt,
        delayMs,
        error: error.message,
      });
      this.reconnectTimer = setTimeout(() => {
        this.reconnectTimer = null;
        this.reconnectInBackground(attempt + 1);
      }, delayMs);
      this.reconnectTimer.unref();
    });
  }

  private retryLater(undeleted: string[]): void {
    for (const group of undeleted) this.leftoverGroups.add(group);
    if (this.leftoverGroups.size === 0 || this.leftoverTimer) return;
    this.leftoverTimer = setTimeout(() => {
      this.leftoverTimer = null;
      const groups = [...this.leftoverGroups];
      this.leftoverGroups.clear();
      void this.deleteGroups(groups).then((left) => left.forEach((g) => this.leftoverGroups.add(g)));
    }, LEFTOVER_GROUP_RETRY_MS).unref();
  }

  /** Deletes reply groups nobody will use again; returns those that could not be deleted. */
  private async deleteGroups(groupIds: string[]): Promise<string[]> {
    const undeleted: string[] = [];
    try {
      await this.withAdmin(1, async (admin) => {
        for (const groupId of groupIds) {
          try {
            await admin.deleteGroups([groupId]);
          } catch (error) {
            // A group that never got offsets (its connect failed early) does not exist: nothing to do.
            if (isGroupNotFound(error)) continue;
            undeleted.push(groupId);
            this.logger.warn({
              msg: 'could not delete a reply consumer group',
              groupId,
              error: (error as Error).message,
            });
          }
        }
      });
    } catch (error) {
      this.logger.warn({
        msg: 'could not delete reply consumer groups',
        groupIds,
        error: (error as Error).message,
      });
      return groupIds;
    }
    return undeleted;
  }

  private async readyClient(
    timeoutMs: number,
    topic: string,
    type: string,
  ): Promise<PerInstanceReplyClientKafka> {
    if (this.client) this.recycleIfDead(this.client);
    if (this.client && this.isReady()) return this.client;
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        this.connect(),
        new Promise<never>(
          (_, reject) => (timer = setTimeout(() => reject(new Error('not connected in time')), timeoutMs)),
        ),
      ]);
    } catch (error) {
      throw new CodedError(ErrorCodes.SERVICE_UNAVAILABLE, `Messaging unavailable for ${type}`, {
        topic,
        type,
        cause: (error as Error).message,
      });
    } finally {
      clearTimeout(timer);
    }
    if (!this.client)
      throw new CodedError(ErrorCodes.SERVICE_UNAVAILABLE, `Messaging unavailable for ${type}`, {
        topic,
        type,
      });
    return this.client;
  }

  /** Leaves the group and removes it: a per-instance group has no use after the instance stops. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
    const client = this.client;
    this.client = null;
    this.connecting = null;
    if (this.leftoverTimer) clearTimeout(this.leftoverTimer);
    this.leftoverTimer = null;
    await Promise.allSettled([...this.retirements]);
    if (client) await client.close();
    const groups = [...this.leftoverGroups, ...(client ? [this.currentGroupId] : [])];
    this.leftoverGroups.clear();
    if (groups.length > 0) await this.deleteGroups(groups);
  }
}

/**
 * Retries what Kafka refuses only until a partition's leadership settles (a topic created moments
 * ago, a broker that just restarted: NOT_LEADER_FOR_PARTITION, LEADER_NOT_AVAILABLE): errors kafkajs
 * marks `retriable`, a few times with a growing pause; anything else at once. kafkajs's own retrier
 * does not cover the admin's list-offsets answer.
 */
async function whileLeadershipSettles<T>(task: () => Promise<T>, attempts = 8): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await task();
    } catch (error) {
      if (attempt >= attempts || (error as { retriable?: boolean }).retriable !== true) throw error;
      await new Promise((resolve) => setTimeout(resolve, 150 * attempt));
    }
  }
}

/**
 * The first value of `replies` within `timeoutMs`, or, past it, while `waitLonger` still holds (up
 * to its `upToMs` from now); else a ReplyTimeout. Unsubscribing on the timeout drops the request's
 * correlation entry, as rxjs's timeout operator would. How long it waited is `clock`'s time: the
 * timers only say when to look again.
 */
function firstReplyWithin<T>(
  replies: Observable<T>,
  timeoutMs: number,
  clock: Clock,
  waitLonger?: WaitLonger,
): Promise<T> {
  const startedAt = clock.nowMs();
  return new Promise<T>((resolve, reject) => {
    let timer: NodeJS.Timeout | undefined;
    // A container first: a reply delivered during subscribe() settles before that call returns, and
    // what is added to a closed subscription is torn down at once.
    const subscription = new Subscription();
    let settled = false;
    const settle = (finish: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      subscription.unsubscribe();
      finish();
    };
    const onDeadline = () => {
      const waitedMs = clock.nowMs() - startedAt;
      if (waitLonger && waitedMs < waitLonger.upToMs && waitLonger.stillWaiting()) {
        timer = setTimeout(onDeadline, Math.min(WAIT_LONGER_CHECK_MS, waitLonger.upToMs - waitedMs));
        return;
      }
      settle(() => reject(new ReplyTimeout(waitedMs)));
    };
    subscription.add(
      replies.subscribe({
        next: (value) => settle(() => resolve(value)),
        error: (error: unknown) => settle(() => reject(error)),
        complete: () => settle(() => reject(new Error('the reply stream completed without a reply'))),
      }),
    );
    if (!settled) timer = setTimeout(onDeadline, timeoutMs);
  });
}
