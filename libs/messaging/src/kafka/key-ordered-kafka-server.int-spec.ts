import { Controller, INestMicroservice, Module, Type } from '@nestjs/common';
import { Ctx, KafkaContext, Payload } from '@nestjs/microservices';
import { TopicEvents } from '../consumer/topic-events.decorator';
import { Consumer, Kafka, logLevel } from 'kafkajs';
import { waitFor } from '@swapgw/testing';
import {
  groupCaughtUp,
  produceRaw,
  testKafkaSettings,
  uniqueSuffix,
} from '../testing/messaging-test-support';
import { ConsumerConcurrency } from './consumer-concurrency';
import { ConsumerLane } from './key-ordered-kafka-server';
import { ensureTopics } from './ensure-topics';
import { createKafkaMicroservice } from '../bootstrap/create-kafka-microservice';
import { KafkaSettings } from './kafka-settings';

const suffix = uniqueSuffix();
const orderedTopic = `itest.keyed.${suffix}`;
const orderedGroup = `itest-keyed-${suffix}`;
const failingTopic = `itest.keyed-fail.${suffix}`;
const failingGroup = `itest-keyed-fail-${suffix}`;
const rebalanceTopic = `itest.keyed-rebalance.${suffix}`;
const rebalanceGroup = `itest-keyed-rebalance-${suffix}`;
const backlogTopic = `itest.keyed-backlog.${suffix}`;
const laneTopic = `itest.keyed-lane.${suffix}`;
const laneGroup = `itest-keyed-lane-${suffix}`;

const KEYS = 20;
const PER_KEY = 10;
const LIMITS: Partial<ConsumerConcurrency> = { partitions: 3, perPartition: 4, perProcess: 8 };

interface Step {
  key: string;
  seq: number;
}

/** What the ordered consumer saw: start/end per message and how much ran at once. */
const seen = {
  log: [] as Array<Step & { at: 'start' | 'end'; partition: number }>,
  runningByPartition: new Map<number, Set<string>>(),
  inFlight: 0,
  maxInFlight: 0,
  maxInFlightOfOnePartition: 0,
  sameKeyOverlapped: false,
  otherKeysOfSamePartitionOverlapped: false,
};

/**
 * The key's messages as first delivered, after checking the order of every delivery: each handling
 * ends before the next one of its key starts, and each message is the one after the previous, or,
 * when the group rejoined before its offsets were committed (a busy broker can make the member
 * rejoin; Kafka delivers at least once), an earlier one from which the key's order starts again.
 */
function deliveriesInKeyOrder(ofKey: Array<Step & { at: 'start' | 'end' }>): number[] {
  const firstDeliveries: number[] = [];
  let previous = -1;
  for (let i = 0; i < ofKey.length; i += 2) {
    const [start, end] = [ofKey[i], ofKey[i + 1]];
    expect([start?.at, end?.at, end?.seq]).toEqual(['start', 'end', start.seq]);
    if (start.seq !== previous + 1) expect(start.seq).toBeLessThanOrEqual(previous);
    if (start.seq === firstDeliveries.length) firstDeliveries.push(start.seq);
    previous = start.seq;
  }
  return firstDeliveries;
}

@Controller()
class OrderedController {
  @TopicEvents(orderedTopic)
  async onStep(@Payload() step: Step, @Ctx() ctx: KafkaContext): Promise<void> {
    const partition = ctx.getPartition();
    const running = seen.runningByPartition.get(partition) ?? new Set<string>();
    seen.runningByPartition.set(partition, running);
    if (running.has(step.key)) seen.sameKeyOverlapped = true;
    if (running.size > 0) seen.otherKeysOfSamePartitionOverlapped = true;
    running.add(step.key);
    seen.inFlight += 1;
    seen.maxInFlight = Math.max(seen.maxInFlight, seen.inFlight);
    seen.maxInFlightOfOnePartition = Math.max(seen.maxInFlightOfOnePartition, running.size);
    seen.log.push({ ...step, at: 'start', partition });
    // A short, uneven piece of async work (a DB write in real consumers).
    await new Promise((resolve) => setTimeout(resolve, 3 + ((step.seq * 7 + step.key.length) % 9)));
    seen.log.push({ ...step, at: 'end', partition });
    seen.inFlight -= 1;
    running.delete(step.key);
  }
}

/** Per offset of the single-partition failing topic: how often it was handled, and whether it must fail. */
const failing = { handled: new Map<number, number>(), failOffset: 2, stillFailing: true };

@Controller()
class FailingController {
  @TopicEvents(failingTopic)
  async onStep(@Payload() _step: Step, @Ctx() ctx: KafkaContext): Promise<void> {
    const offset = Number(ctx.getMessage().offset);
    failing.handled.set(offset, (failing.handled.get(offset) ?? 0) + 1);
    if (offset === failing.failOffset) {
      // Fail after the later messages (other keys, running alongside) have finished.
      await new Promise((resolve) => setTimeout(resolve, 100));
      if (failing.stillFailing) throw new Error('downstream unavailable');
    }
  }
}

/** Every message start of the rebalance test: which member, when. */
const slowStarts: Array<{ member: string; at: number }> = [];
const slowHandled = new Set<string>();
const SLOW_HANDLER_MS = 2000;
/** 2 partitions at a time, one message each: most of a fetch's batches wait in kafkajs's queue. */
const SLOW_LIMITS: Partial<ConsumerConcurrency> = { partitions: 2, perPartition: 1, perProcess: 2 };
const SLOW_PARTITIONS = 12;

/** A module whose handler takes 2 s and records which member started it. */
function slowConsumerModule(member: string): Type<unknown> {
  @Controller()
  class SlowController {
    @TopicEvents(rebalanceTopic)
    async onItem(@Payload() item: { id: string }): Promise<void> {
      slowStarts.push({ member, at: Date.now() });
      await new Promise((resolve) => setTimeout(resolve, SLOW_HANDLER_MS));
      slowHandled.add(item.id);
    }
  }
  @Module({ controllers: [SlowController] })
  class SlowModule {}
  return SlowModule;
}

/**
 * A backlog whose every message waits until the lane's message has been handled: on one consumer
 * (one message in flight) the lane's message could never start, so the backlog would never end.
 */
const lane = {
  handled: [] as string[],
  laneHandled: null as null | (() => void),
  laneSeen: null as null | Promise<void>,
};
lane.laneSeen = new Promise<void>((resolve) => (lane.laneHandled = resolve));

@Controller()
class LaneController {
  @TopicEvents(backlogTopic)
  async onBacklog(@Payload() item: { id: string }): Promise<void> {
    await lane.laneSeen;
    lane.handled.push(item.id);
  }

  @TopicEvents(laneTopic)
  async onLane(@Payload() item: { id: string }): Promise<void> {
    lane.handled.push(item.id);
    lane.laneHandled?.();
  }
}

@Module({ controllers: [OrderedController] })
class OrderedModule {}

@Module({ controllers: [LaneController] })
class LaneModule {}

@Module({ controllers: [FailingController] })
class FailingModule {}

async function committedOffset(settings: KafkaSettings, groupId: string, topic: string): Promise<string> {
  const admin = new Kafka({
    clientId: `${settings.clientId}-offsets`,
    brokers: settings.brokers,
    logLevel: logLevel.NOTHING,
  }).admin();
  await admin.connect();
  try {
    const [committed] = await admin.fetchOffsets({ groupId, topics: [topic] });
    return committed?.partitions.find((p) => p.partition === 0)?.offset ?? '-1';
  } finally {
    await admin.disconnect();
  }
}

describe('KeyOrderedKafkaServer against the broker', () => {
  const settings = testKafkaSettings('itest-keyed');
  const apps: INestMicroservice[] = [];

  async function startApp(
    module: Type<unknown>,
    groupId: string,
    concurrency = LIMITS,
    lanes: ConsumerLane[] = [],
  ): Promise<INestMicroservice> {
    const app = await createKafkaMicroservice(module, settings, groupId, {
      concurrency,
      lanes,
      logger: ['error'],
    });
    apps.push(app);
    await app.listen();
    return app;
  }

  beforeAll(async () => {
    await ensureTopics(settings, [
      { name: orderedTopic, partitions: 3 },
      { name: failingTopic, partitions: 1 },
      { name: rebalanceTopic, partitions: SLOW_PARTITIONS },
      { name: backlogTopic, partitions: 1 },
      { name: laneTopic, partitions: 1 },
    ]);
  });

  afterAll(async () => {
    await Promise.allSettled(apps.map((app) => app.close()));
  });

  it('handles 200 messages over 20 keys in order per key, different keys of a partition at once, within the caps', async () => {
    // Produced before the consumer starts, so its fetches bring many messages of each partition.
    const messages = [];
    for (let seq = 0; seq < PER_KEY; seq++) {
      for (let k = 0; k < KEYS; k++)
        messages.push({ key: `order-${k}`, value: JSON.stringify({ key: `order-${k}`, seq }) });
    }
    await produceRaw(settings, orderedTopic, messages);
    await startApp(OrderedModule, orderedGroup);

    await waitFor(() => seen.log.filter((e) => e.at === 'end').length >= KEYS * PER_KEY, {
      description: 'all 200 messages to be handled',
      timeoutMs: 60_000,
    });
    await waitFor(() => groupCaughtUp(settings, orderedGroup, orderedTopic), {
      description: 'the group to commit the end of every partition',
      timeoutMs: 30_000,
    });

    for (let k = 0; k < KEYS; k++) {
      const key = `order-${k}`;
      const ofKey = seen.log.filter((e) => e.key === key);
      // start 0, end 0, start 1, end 1, ...: each one begins after the previous one of its key ended.
      expect(deliveriesInKeyOrder(ofKey)).toEqual(Array.from({ length: PER_KEY }, (_, seq) => seq));
      expect(new Set(ofKey.map((e) => e.partition)).size).toBe(1);
    }
    expect(seen.sameKeyOverlapped).toBe(false);
    expect(seen.otherKeysOfSamePartitionOverlapped).toBe(true);
    expect(seen.maxInFlight).toBeGreaterThan(1);
    expect(seen.maxInFlightOfOnePartition).toBeLessThanOrEqual(LIMITS.perPartition!);
    expect(seen.maxInFlight).toBeLessThanOrEqual(LIMITS.perProcess!);
  });

  it('redelivers a failed message and never commits past it, while the messages before it stay committed', async () => {
    // Offsets 0..5, one key each: all run at once, offset 2 fails after 3, 4 and 5 are done.
    await produceRaw(
      settings,
      failingTopic,
      Array.from({ length: 6 }, (_, i) => ({
        key: `item-${i}`,
        value: JSON.stringify({ key: `item-${i}`, seq: i }),
      })),
    );
    await startApp(FailingModule, failingGroup);

    await waitFor(() => (failing.handled.get(2) ?? 0) >= 3, {
      description: 'the failing message to be delivered a third time',
      timeoutMs: 30_000,
    });
    const committedWhileFailing = await committedOffset(settings, failingGroup, failingTopic);
    // The committed offset is the next one to read: 2, i.e. exactly the finished prefix 0 and 1.
    expect(committedWhileFailing).toBe('2');
    expect(failing.handled.get(0)).toBe(1);
    expect(failing.handled.get(1)).toBe(1);
    // 3..5 finished the first time but lie beyond the failure: they come again with it.
    expect(failing.handled.get(3)).toBeGreaterThanOrEqual(2);

    failing.stillFailing = false;
    await waitFor(async () => (await committedOffset(settings, failingGroup, failingTopic)) === '6', {
      description: 'the group to commit past the recovered message',
      timeoutMs: 30_000,
    });
    expect(failing.handled.get(0)).toBe(1);
    expect(failing.handled.get(1)).toBe(1);
    for (const offset of [2, 3, 4, 5]) expect(failing.handled.get(offset)).toBeGreaterThanOrEqual(2);
  });

  it('rejoins a rebalancing group once its running messages are done, without starting the batches still queued', async () => {
    // 3 messages in each of 12 partitions, produced before the first member starts: one fetch brings
    // 12 batches, of which kafkajs hands 2 at a time to the consumer (6 s each).
    await produceRaw(
      settings,
      rebalanceTopic,
      Array.from({ length: SLOW_PARTITIONS * 3 }, (_, i) => ({
        partition: i % SLOW_PARTITIONS,
        key: `item-${i}`,
        value: JSON.stringify({ id: `item-${i}` }),
      })),
    );
    const first = await startApp(slowConsumerModule('first'), rebalanceGroup, SLOW_LIMITS);
    const firstJoins: number[] = [];
    const [, firstConsumer] = first.unwrap<[Kafka, Consumer]>();
    firstConsumer.on(firstConsumer.events.GROUP_JOIN, () => firstJoins.push(Date.now()));
    await waitFor(() => slowStarts.length >= 2, {
      description: 'the first member to be working on two batches',
      timeoutMs: 30_000,
    });

    // A second member joins: the group rebalances, and completes only once the first has rejoined.
    const secondJoinedFrom = Date.now();
    await startApp(slowConsumerModule('second'), rebalanceGroup, SLOW_LIMITS);
    const rejoinedAt = await waitFor(() => firstJoins.find((at) => at >= secondJoinedFrom), {
      description: 'the first member to rejoin the group',
      timeoutMs: 60_000,
    });

    // Until it learns of the rebalance (its next heartbeat, at most about 2 s) the first member may
    // start the next message of its 2 running batches; the 10 queued batches start none (they used
    // to start one each, 2 at a time: 10 more messages and 10 s more before the group could rejoin).
    const startedWhileRebalancing = slowStarts.filter(
      (s) => s.member === 'first' && s.at >= secondJoinedFrom && s.at <= rejoinedAt,
    );
    expect(startedWhileRebalancing.length).toBeLessThanOrEqual(4);

    // Nothing is lost: every message is handled, by one member or the other, and committed.
    await waitFor(() => slowHandled.size === SLOW_PARTITIONS * 3, {
      description: 'all 36 messages to be handled',
      timeoutMs: 90_000,
    });
    await waitFor(() => groupCaughtUp(settings, rebalanceGroup, rebalanceTopic), {
      description: 'the group to commit the end of every partition',
      timeoutMs: 30_000,
    });
    expect(new Set(slowStarts.map((s) => s.member))).toEqual(new Set(['first', 'second']));
  });
  it('consumes a lane with a consumer and group of its own: its message is handled while the backlog of the other topics waits for it', async () => {
    // One message in flight per consumer: on the server's main consumer, the backlog's first message
    // holds the only slot until the lane's message is handled.
    const oneAtATime: Partial<ConsumerConcurrency> = { partitions: 1, perPartition: 1, perProcess: 1 };
    await produceRaw(
      settings,
      backlogTopic,
      Array.from({ length: 5 }, (_, i) => ({
        key: `backlog-${i}`,
        value: JSON.stringify({ id: `backlog-${i}` }),
      })),
    );
    await produceRaw(settings, laneTopic, [{ key: 'check', value: JSON.stringify({ id: 'check' }) }]);
    const app = await startApp(LaneModule, laneGroup, oneAtATime, [{ name: 'checks', topics: [laneTopic] }]);

    await waitFor(() => lane.handled.length === 6, {
      description: 'the lane message and the whole backlog to be handled',
      timeoutMs: 60_000,
    });
    expect(lane.handled[0]).toBe('check');
    expect(lane.handled.slice(1).sort()).toEqual([
      'backlog-0',
      'backlog-1',
      'backlog-2',
      'backlog-3',
      'backlog-4',
    ]);
    // Each topic is committed by its own group only: the lane's by `<group>-checks`.
    await waitFor(() => groupCaughtUp(settings, `${laneGroup}-checks`, laneTopic), {
      description: 'the lane group to commit its topic',
      timeoutMs: 30_000,
    });
    await waitFor(() => groupCaughtUp(settings, laneGroup, backlogTopic), {
      description: 'the main group to commit the backlog',
      timeoutMs: 30_000,
    });
    expect(await committedOffset(settings, laneGroup, laneTopic)).toBe('-1');
    // unwrap names the lane's consumer after Nest's three (how bootstrapKafkaService tracks readiness).
    const [, , , ...laneConsumers] = app.unwrap<[Kafka, Consumer, unknown, ...Consumer[]]>();
    expect(laneConsumers).toHaveLength(1);
    expect((await laneConsumers[0].describeGroup()).groupId).toBe(`${laneGroup}-checks`);
  });
});
