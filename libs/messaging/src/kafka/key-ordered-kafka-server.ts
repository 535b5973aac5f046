import { AsyncLocalStorage } from 'node:async_hooks';
import { Logger } from '@nestjs/common';
import { KafkaOptions, ServerKafka, WritePacket } from '@nestjs/microservices';
import type {
  Consumer,
  EachBatchPayload,
  EachMessagePayload,
  KafkaMessage,
} from '@nestjs/microservices/external/kafka.interface';
import type { Kafka } from 'kafkajs';
import type { Observable, Subscription } from 'rxjs';
import { InFlightLimit } from '../consumer/in-flight-limit';
import { BatchOutcome, KeyOrderedBatch, MessageKey } from '../consumer/key-ordered-batch';
import { ConsumerConcurrency } from './consumer-concurrency';
import { withSuiteProducers } from './traced-producer';

/** kafkajs only sends a heartbeat when its heartbeatInterval has passed, so asking often is cheap. */
const KEEP_ALIVE_EVERY_MS = 1000;

/** Keys are compared byte for byte: latin1 maps each byte to one character. */
const keyOf = (message: KafkaMessage): MessageKey =>
  message.key == null ? null : message.key.toString('latin1');

/** The errors by which kafkajs tells a member to rejoin its group (its own `isRebalancing`, not exported). */
const REJOIN_ERROR_TYPES = new Set([
  'REBALANCE_IN_PROGRESS',
  'NOT_COORDINATOR_FOR_GROUP',
  'ILLEGAL_GENERATION',
]);
const asksToRejoin = (error: unknown): boolean =>
  REJOIN_ERROR_TYPES.has((error as { type?: unknown } | null)?.type as string);

/**
 * Topics a server consumes apart from its others, with a consumer (and group) of their own: its own
 * fetches, its own offsets and its own in-flight cap, so its messages never wait behind a backlog
 * of the server's other topics. kafkajs fetches a consumer's next messages only once every batch of
 * its last fetch has been handled, so a request on a busy consumer waits for all that fetch held.
 */
export interface ConsumerLane {
  /** Suffix of the lane's consumer group: `<groupId>-<name>` (laneGroupIdOf). */
  name: string;
  /** Topics only the lane consumes (each must have a handler). */
  topics: readonly string[];
}

/** The consumer group of an app's lane: its offsets, lag and ACLs are the lane's own. */
export function laneGroupIdOf(groupId: string, lane: Pick<ConsumerLane, 'name'>): string {
  return `${groupId}-${lane.name}`;
}

/** One kafkajs consumer of the server: the main one or a lane's, with what its batches share. */
interface ConsumerRun {
  consumer: Consumer;
  /** Its subscription: the handlers' topics not in a lane, or the lane's. */
  topics: string[];
  /** The per-process cap on its messages being handled. */
  processLimit: InFlightLimit;
  /** The rebalance one of its batches' heartbeats learned of, until it has joined its group again. */
  rejoinPending: { error: unknown } | null;
}

/**
 * Nest's Kafka server, but each fetched batch is worked on concurrently with per-key order (see
 * KeyOrderedBatch) instead of one message at a time per partition. Nest's own message handling
 * (deserializing, routing to @MessagePattern / @EventPattern, replies) is reused unchanged.
 *
 * Offsets: a message counts as done when its handler resolved and, for a @MessagePattern, its reply
 * was produced (Nest does not await that send). Only the contiguous prefix of done messages is
 * resolved, and kafkajs commits resolved offsets (autoCommit) during and after the batch.
 *
 * Lanes (ConsumerLane): topics consumed by a consumer of their own in a group of their own, so that
 * a backlog on the server's other topics never holds them up (quote-service answers a build's price
 * check apart from the flood of quotes before it). Same handling, caps per consumer.
 *
 * Rebalance: kafkajs rejoins the group only once every batch of the last fetch has been handed to
 * eachBatch and has returned, and a fetch holds a batch for each of the member's partitions with
 * messages. So the first batch whose heartbeat learns of a rebalance tells the whole consumer: every
 * running batch stops starting messages and every batch still queued returns at once, and the member
 * rejoins as soon as the messages already running are done (not after the queue has been worked
 * through, which kept the group waiting for seconds during a burst).
 *
 * A handler error keeps Nest 11's semantics (it reaches kafkajs, which does not commit past it and
 * fetches again with back-off): no new message is started, the running ones are awaited, the done
 * prefix is resolved, then the error is rethrown so that the failed message comes again.
 */
export class KeyOrderedKafkaServer extends ServerKafka {
  private readonly batchLogger = new Logger(KeyOrderedKafkaServer.name);
  /** Same context as the bootstrap's logs: the restart is part of keeping the service up. */
  private readonly restartLogger = new Logger('Bootstrap');
  /** Replies being produced for the message whose handler runs in this async context. */
  private readonly pendingReplies = new AsyncLocalStorage<Array<Promise<void>>>();
  /** The main consumer's run (Nest's `this.consumer`), then each lane's, once started. */
  private readonly runs = new Map<Consumer, ConsumerRun>();
  /** Each topic's route, as Nest's getRouteFromPattern makes it (see there). */
  private readonly routes = new Map<string, string>();

  constructor(
    options: Required<KafkaOptions>['options'],
    private readonly limits: Pick<ConsumerConcurrency, 'perPartition' | 'perProcess'>,
    private readonly behaviour: { restartAfterFatalCrash?: boolean; lanes?: readonly ConsumerLane[] } = {},
  ) {
    super(options);
  }

  private get lanes(): readonly ConsumerLane[] {
    return this.behaviour.lanes ?? [];
  }

  /** Every consumer this server runs: Nest's (the client, producer and main consumer), then the lanes'. */
  override unwrap<T>(): T {
    const [client, consumer, producer] = super.unwrap<[unknown, Consumer, unknown]>();
    const lanes = [...this.runs.keys()].filter((c) => c !== consumer);
    return [client, consumer, producer, ...lanes] as T;
  }

  /**
   * The route of a message's topic, worked out once per topic. Nest works it out for every message
   * by trying `JSON.parse` on the topic's name, which throws (and builds a stack trace) for every
   * plain name such as `swap.commands`: 1 to 1.4 % of each service's busy time in a flood's profile.
   */
  override getRouteFromPattern(pattern: string): string {
    let route = this.routes.get(pattern);
    if (route === undefined) {
      route = super.getRouteFromPattern(pattern);
      this.routes.set(pattern, route);
    }
    return route;
  }

  /** Kafka's client, its producer's sends (replies, dead letters) traced: traced-producer.ts. */
  override async createClient<T = Kafka>(): Promise<T> {
    return withSuiteProducers(await super.createClient<Kafka>()) as T;
  }

  /**
   * Subscribes to the handlers' topics and runs the consumer with `eachBatch`. Also called again
   * after a fatal consumer crash, on the same consumer (see restartAfterFatalCrash).
   */
  override async bindEvents(consumer: Consumer): Promise<void> {
    const inLanes = new Set(this.lanes.flatMap((lane) => lane.topics));
    const run = this.runOf(consumer, []);
    run.topics = [...this.messageHandlers.keys()].filter((topic) => !inLanes.has(topic));
    await this.runConsumer(run);
    for (const lane of this.lanes) await this.startLane(lane);
  }

  /** The run of `consumer`, made on its first start (a restart keeps its state). */
  private runOf(consumer: Consumer, topics: string[]): ConsumerRun {
    let run = this.runs.get(consumer);
    if (!run) {
      run = {
        consumer,
        topics,
        processLimit: new InFlightLimit(this.limits.perProcess),
        rejoinPending: null,
      };
      this.runs.set(consumer, run);
    }
    return run;
  }

  private async runConsumer(run: ConsumerRun): Promise<void> {
    const { consumer, topics } = run;
    if (topics.length > 0) await consumer.subscribe({ ...this.options.subscribe, topics });
    await consumer.run({
      // partitionsConsumedConcurrently, autoCommit, autoCommitInterval (kafkaServerOptions)
      ...this.options.run,
      // Offsets are resolved here, message by message, never by kafkajs at the end of a batch.
      eachBatchAutoResolve: false,
      eachBatch: (payload) => this.handleBatch(run, payload),
    });
  }

  /** A lane's consumer, in group `<groupId>-<name>`, on the server's Kafka client, running its topics. */
  private async startLane(lane: ConsumerLane): Promise<void> {
    const missing = lane.topics.filter((topic) => !this.messageHandlers.has(topic));
    if (missing.length > 0)
      throw new Error(`consumer lane ${lane.name}: no handler for ${missing.join(', ')}`);
    const client = this.client as unknown as Kafka;
    const consumer = client.consumer({
      ...(this.options.consumer as Parameters<Kafka['consumer']>[0]),
      groupId: laneGroupIdOf(this.groupId, lane),
    }) as unknown as Consumer;
    const run = this.runOf(consumer, [...lane.topics]);
    this.trackRejoin(run);
    if (this.behaviour.restartAfterFatalCrash) this.restartAfterFatalCrash(run);
    await consumer.connect();
    await this.runConsumer(run);
  }

  /** The lanes' consumers leave their groups with the main one. */
  override async close(): Promise<void> {
    const lanes = [...this.runs.values()].filter((run) => run.consumer !== this.consumer);
    this.runs.clear();
    await Promise.allSettled(lanes.map((run) => run.consumer.disconnect()));
    await super.close();
  }

  /** A consumer that joined its group again has no rebalance pending. */
  private trackRejoin(run: ConsumerRun): void {
    run.consumer.on(run.consumer.events.GROUP_JOIN, () => (run.rejoinPending = null));
  }

  /** Nest's listeners (status events), plus, if asked for, the restart of a consumer kafkajs gave up on. */
  protected override registerConsumerEventListeners(): void {
    super.registerConsumerEventListeners();
    if (!this.consumer) return;
    // Its topics are known once the handlers are bound (bindEvents); the run is made here so that
    // the listeners below hold it.
    const run = this.runOf(this.consumer, []);
    this.trackRejoin(run);
    if (this.behaviour.restartAfterFatalCrash) this.restartAfterFatalCrash(run);
  }

  /**
   * kafkajs restarts a crashed consumer only for errors it deems retriable; after a broker restart it
   * can give up for good (e.g. "Failed to find group coordinator") and the service would stay out of
   * its group. Then the consumer is connected and bound to the handlers again, with back-off, until
   * it runs (or the server is closed); readiness follows the group join as usual.
   */
  private restartAfterFatalCrash(run: ConsumerRun): void {
    const { consumer } = run;
    const current = () => this.runs.get(consumer) === run;
    let restarting = false;
    consumer.on(consumer.events.CRASH, (event) => {
      if (event.payload.restart || restarting) return;
      restarting = true;
      void (async () => {
        for (let attempt = 1; current(); attempt++) {
          const delayMs = Math.min(30_000, 1000 * 2 ** Math.min(attempt - 1, 5));
          this.restartLogger.warn({
            msg: 'Kafka consumer crashed for good; restarting it',
            attempt,
            delayMs,
            error: event.payload.error.message,
          });
          await new Promise((resolve) => setTimeout(resolve, delayMs));
          if (!current()) return; // closed meanwhile
          try {
            await consumer.connect();
            await this.runConsumer(run);
            this.restartLogger.log({ msg: 'Kafka consumer restarted', attempt });
            return;
          } catch (error) {
            this.restartLogger.warn({
              msg: 'Kafka consumer restart failed',
              attempt,
              error: (error as Error).message,
            });
            await consumer.disconnect().catch(() => undefined);
          }
        }
      })().finally(() => (restarting = false));
    });
  }

  /** Nest's handling of one message, plus the wait for its reply (if any) to be produced. */
  override async handleMessage(payload: EachMessagePayload): Promise<void> {
    const replies: Array<Promise<void>> = [];
    await this.pendingReplies.run(replies, () => super.handleMessage(payload));
    await Promise.all(replies);
  }

  /**
   * Nest produces a @MessagePattern's reply from here without awaiting it. The send is tracked so
   * that the request's offset is only committed once its answer is on the reply topic; a failed
   * send fails the message (redelivered, answered again) instead of an unhandled rejection.
   */
  override send(
    stream$: Observable<unknown>,
    respond: (data: WritePacket) => Promise<unknown> | void,
  ): Subscription {
    const replies = this.pendingReplies.getStore();
    if (!replies) return super.send(stream$, respond);
    let settle!: { resolve: () => void; reject: (error: unknown) => void };
    const produced = new Promise<void>((resolve, reject) => (settle = { resolve, reject }));
    produced.catch(() => undefined); // awaited by handleMessage; never unhandled
    replies.push(produced);
    return super.send(stream$, async (packet) => {
      try {
        await respond(packet);
        if (packet.isDisposed) settle.resolve(); // the last packet of the reply stream
      } catch (error) {
        settle.reject(error);
      }
    });
  }

  private async handleBatch(run: ConsumerRun, payload: EachBatchPayload): Promise<void> {
    const { batch, resolveOffset, heartbeat, pause, isRunning, isStale, commitOffsetsIfNecessary } = payload;
    const { topic, partition } = batch;
    // Fetched before the rebalance: the partition may be someone else's once the group is joined.
    if (run.rejoinPending) throw run.rejoinPending.error;
    // An object, not two lets: they are set from callbacks, which TypeScript's narrowing ignores.
    const liveness = { beating: false, failure: null as { error: unknown } | null };
    // Long batches must not look like a dead member: heartbeat (and commit the done prefix when
    // autoCommitInterval says so) while messages are handled. A failed heartbeat usually means a
    // rebalance: stop taking new messages, the partition may already belong to someone else, and
    // tell the other batches so (see the class comment).
    let running = true;
    const keepAlive = () => {
      if (liveness.beating || liveness.failure) return;
      liveness.beating = true;
      heartbeat()
        .then(
          () => commitOffsetsIfNecessary().catch(() => undefined), // retried by the commit at the end of the batch
          (error: unknown) => {
            liveness.failure = { error };
            if (running && asksToRejoin(error)) run.rejoinPending ??= { error };
          },
        )
        .finally(() => (liveness.beating = false));
    };
    const timer = setInterval(keepAlive, KEEP_ALIVE_EVERY_MS);

    const messages = batch.messages.map((message) => ({
      key: keyOf(message),
      offset: message.offset,
      message,
    }));
    let outcome: BatchOutcome;
    try {
      outcome = await new KeyOrderedBatch(messages, {
        perPartition: this.limits.perPartition,
        process: run.processLimit,
      }).run(({ message }) => this.handleMessage({ topic, partition, message, heartbeat, pause }), {
        shouldContinue: () => !liveness.failure && !run.rejoinPending && isRunning() && !isStale(),
        onCommittable: (offset) => resolveOffset(offset),
        onSettled: keepAlive,
      });
    } finally {
      running = false;
      clearInterval(timer);
    }

    if (outcome.status === 'failed') {
      this.batchLogger.warn({
        msg: 'message handler failed; batch stopped, redelivery from the first unfinished offset',
        topic,
        partition,
        failedOffset: outcome.failedOffset,
        committableOffset: outcome.committableOffset ?? null,
        error: (outcome.error as Error)?.message ?? String(outcome.error),
      });
      throw outcome.error;
    }
    // kafkajs rejoins the group on a rebalance error.
    const stoppedBy = liveness.failure ?? run.rejoinPending;
    if (stoppedBy) throw stoppedBy.error;
  }
}
