import { InFlightLimit } from './in-flight-limit';
import { BatchHooks, BatchOutcome, KeyedMessage, KeyOrderedBatch, MessageKey } from './key-ordered-batch';

/** A handler call the test finishes (or fails) by hand: overlap is proven, not timed. */
interface Call {
  offset: string;
  succeed(): void;
  fail(error: Error): void;
}

/** A batch whose handler records what started and waits for the test to settle each message. */
function harness(
  keys: MessageKey[],
  limits: { perPartition?: number; process?: InFlightLimit } = {},
  hooks: Partial<BatchHooks> = {},
) {
  const messages: KeyedMessage[] = keys.map((key, i) => ({ key, offset: String(100 + i) }));
  const calls = new Map<string, Call>();
  const started: string[] = [];
  const committable: string[] = [];
  const batch = new KeyOrderedBatch(messages, {
    perPartition: limits.perPartition ?? 16,
    process: limits.process ?? new InFlightLimit(64),
  });
  let outcome: BatchOutcome | undefined;
  const done = batch
    .run(
      (message) =>
        new Promise<void>((resolve, reject) => {
          started.push(message.offset);
          calls.set(message.offset, {
            offset: message.offset,
            succeed: () => resolve(),
            fail: (error) => reject(error),
          });
        }),
      {
        shouldContinue: hooks.shouldContinue ?? (() => true),
        onCommittable: (offset) => committable.push(offset),
        onSettled: hooks.onSettled,
      },
    )
    .then((o) => (outcome = o));
  const call = (offset: string): Call => {
    const c = calls.get(offset);
    if (!c) throw new Error(`offset ${offset} was not started`);
    return c;
  };
  return { started, committable, call, done, outcome: () => outcome };
}

/** Lets every pending promise callback (and the dispatcher) run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('KeyOrderedBatch', () => {
  it('handles messages with the same key one after the other, in offset order', async () => {
    const h = harness(['order-1', 'order-1', 'order-1']);
    await settle();
    expect(h.started).toEqual(['100']);
    h.call('100').succeed();
    await settle();
    expect(h.started).toEqual(['100', '101']);
    h.call('101').succeed();
    await settle();
    expect(h.started).toEqual(['100', '101', '102']);
    h.call('102').succeed();
    await h.done;
    expect(h.outcome()).toEqual({ status: 'completed', committableOffset: '102' });
  });

  it('handles messages with different keys at the same time', async () => {
    const h = harness(['a', 'b', 'c', 'a']);
    await settle();
    // Three handlers are running and none has finished: they overlap. The second "a" waits.
    expect(h.started).toEqual(['100', '101', '102']);
    h.call('102').succeed();
    h.call('101').succeed();
    await settle();
    expect(h.started).toEqual(['100', '101', '102']);
    h.call('100').succeed();
    await settle();
    expect(h.started).toEqual(['100', '101', '102', '103']);
    h.call('103').succeed();
    await h.done;
    expect(h.outcome()?.status).toBe('completed');
  });

  it('keeps messages without a key in order among themselves', async () => {
    const h = harness([null, 'a', null]);
    await settle();
    expect(h.started).toEqual(['100', '101']);
    h.call('100').succeed();
    await settle();
    expect(h.started).toEqual(['100', '101', '102']);
  });

  it('does not let a message waiting for its key take a slot from the next keys', async () => {
    const h = harness(['a', 'a', 'b', 'c'], { perPartition: 2 });
    await settle();
    expect(h.started).toEqual(['100', '102']);
  });

  it('never runs more than the per-partition cap at once', async () => {
    const h = harness(['a', 'b', 'c', 'd', 'e'], { perPartition: 2 });
    await settle();
    expect(h.started).toEqual(['100', '101']);
    h.call('101').succeed();
    await settle();
    expect(h.started).toEqual(['100', '101', '102']);
  });

  it('shares the per-process cap between partitions, serving waiting partitions in turn', async () => {
    const process = new InFlightLimit(3);
    const first = harness(['a', 'b', 'c', 'd', 'e'], { perPartition: 5, process });
    await settle();
    const second = harness(['x', 'y'], { perPartition: 5, process });
    await settle();
    expect(first.started).toEqual(['100', '101', '102']);
    expect(second.started).toEqual([]);
    expect(process.inFlight).toBe(3);
    first.call('100').succeed();
    await settle();
    expect(first.started).toEqual(['100', '101', '102', '103']); // it asked for a slot first
    first.call('101').succeed();
    await settle();
    // Then the other partition's turn: a busy partition cannot take every freed slot.
    expect(second.started).toEqual(['100']);
    expect(first.started).toHaveLength(4);
    expect(process.inFlight).toBe(3);
  });

  it('never marks an offset committable past a message still running', async () => {
    const h = harness(['slow', 'b', 'c']);
    await settle();
    h.call('101').succeed();
    h.call('102').succeed();
    await settle();
    expect(h.committable).toEqual([]);
    h.call('100').succeed();
    await h.done;
    // Once the slow one is done, the whole prefix is committable at once.
    expect(h.committable).toEqual(['102']);
  });

  it('on a failure starts nothing new, waits for the running ones and stops the committable offset before the failed one', async () => {
    const h = harness(['a', 'b', 'c', 'd', 'e'], { perPartition: 3 });
    await settle();
    expect(h.started).toEqual(['100', '101', '102']);
    h.call('100').succeed();
    await settle();
    expect(h.started).toEqual(['100', '101', '102', '103']);
    h.call('101').fail(new Error('database unavailable'));
    await settle();
    h.call('103').succeed();
    await settle();
    expect(h.outcome()).toBeUndefined(); // 102 is still running: the batch waits for it
    h.call('102').succeed();
    await h.done;
    expect(h.started).toEqual(['100', '101', '102', '103']); // 104 never started
    expect(h.committable).toEqual(['100']);
    expect(h.outcome()).toMatchObject({ status: 'failed', committableOffset: '100', failedOffset: '101' });
    expect((h.outcome() as { error: Error }).error.message).toBe('database unavailable');
  });

  it('reports no committable offset when the very first message fails', async () => {
    const h = harness(['a', 'b']);
    await settle();
    h.call('101').succeed();
    h.call('100').fail(new Error('boom'));
    await h.done;
    expect(h.committable).toEqual([]);
    expect(h.outcome()).toMatchObject({
      status: 'failed',
      committableOffset: undefined,
      failedOffset: '100',
    });
  });

  it('stops taking new messages when told to (rebalance), after the running ones', async () => {
    let running = true;
    const settled: number[] = [];
    const h = harness(
      ['a', 'b', 'c'],
      { perPartition: 2 },
      { shouldContinue: () => running, onSettled: () => settled.push(1) },
    );
    await settle();
    running = false;
    h.call('100').succeed();
    h.call('101').succeed();
    await h.done;
    expect(h.started).toEqual(['100', '101']);
    expect(settled).toHaveLength(2);
    expect(h.outcome()).toEqual({ status: 'stopped', committableOffset: '101' });
  });

  it('completes an empty batch at once', async () => {
    const h = harness([]);
    await h.done;
    expect(h.outcome()).toEqual({ status: 'completed', committableOffset: undefined });
  });
});

describe('InFlightLimit', () => {
  it('hands out at most its capacity and gives a released slot to the oldest waiter', async () => {
    const limit = new InFlightLimit(1);
    const release = await limit.acquire();
    const order: string[] = [];
    const first = limit.acquire().then((r) => (order.push('first'), r));
    const second = limit.acquire().then((r) => (order.push('second'), r));
    await settle();
    expect(order).toEqual([]);
    release();
    release(); // a second call is ignored, it must not free a slot twice
    (await first)();
    (await second)();
    expect(order).toEqual(['first', 'second']);
    expect(limit.inFlight).toBe(0);
  });

  it('refuses a capacity below one', () => {
    expect(() => new InFlightLimit(0)).toThrow(/positive integer/);
  });
});
