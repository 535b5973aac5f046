import { InFlightLimit } from './in-flight-limit';

/** The Kafka key as a string; `null` for messages sent without one (they share one queue). */
export type MessageKey = string | null;

/** What the scheduler needs to know of a message: its key (ordering) and offset (committing). */
export interface KeyedMessage {
  key: MessageKey;
  offset: string;
}

export interface KeyOrderedBatchLimits {
  /** At most this many messages of the batch (one partition) are handled at once. */
  perPartition: number;
  /** The consumer's per-process cap, shared with its other partitions. */
  process: InFlightLimit;
}

export interface BatchHooks {
  /** Asked before each dispatch: false stops taking new messages (rebalance, consumer stopping). */
  shouldContinue(): boolean;
  /** Every message up to and including `offset` is done: it may be committed. */
  onCommittable(offset: string): void;
  /** A message finished, either way (the Kafka side heartbeats there). */
  onSettled?(): void;
}

/**
 * How a batch ended. `committableOffset` is the last offset of the contiguous prefix of handled
 * messages (undefined when the first one is not done): never past an unfinished or failed one.
 */
export type BatchOutcome =
  | { status: 'completed'; committableOffset?: string }
  | { status: 'stopped'; committableOffset?: string }
  | { status: 'failed'; committableOffset?: string; failedOffset: string; error: unknown };

/**
 * Handles the messages of one partition's batch concurrently while keeping per-key order: a
 * message starts only once every earlier message with the same key has finished, so messages of
 * one aggregate are applied in offset order and the others overlap. Bounded by a per-partition
 * cap and a shared per-process cap (a message waiting for its key takes no slot).
 *
 * On the first handler error no new message is started; the running ones are awaited and the
 * outcome is `failed`, so the caller can commit the finished prefix and have the failed message
 * (and everything after it) delivered again. Single use: one instance per batch.
 */
export class KeyOrderedBatch<M extends KeyedMessage> {
  private readonly started: boolean[];
  private readonly finished: boolean[];
  private readonly busyKeys = new Set<MessageKey>();
  private readonly inFlight = new Set<Promise<void>>();
  /** Index of the first message not started yet: the scan for the next one starts there. */
  private firstUnstarted = 0;
  /** Length of the contiguous prefix of finished messages. */
  private finishedPrefix = 0;
  private failure: { index: number; error: unknown } | null = null;
  private wakeDispatcher: (() => void) | null = null;

  constructor(
    private readonly messages: readonly M[],
    private readonly limits: KeyOrderedBatchLimits,
  ) {
    if (!Number.isInteger(limits.perPartition) || limits.perPartition < 1) {
      throw new Error(`per-partition cap must be a positive integer, got ${limits.perPartition}`);
    }
    this.started = messages.map(() => false);
    this.finished = messages.map(() => false);
  }

  async run(handle: (message: M) => Promise<unknown>, hooks: BatchHooks): Promise<BatchOutcome> {
    for (;;) {
      if (this.failure || !hooks.shouldContinue()) break;
      const next = this.nextRunnable();
      if (next === undefined) {
        if (this.inFlight.size === 0) break; // everything started has finished: nothing left
        await this.oneSettled();
        continue;
      }
      const release = await this.limits.process.acquire();
      // The wait for a slot may have been long: something may have failed meanwhile.
      if (this.failure || !hooks.shouldContinue()) {
        release();
        break;
      }
      this.start(next, release, handle, hooks);
    }
    await Promise.all(this.inFlight);
    return this.outcome();
  }

  /**
   * The first message not started whose key is idle, if the partition has room. Scanning in
   * offset order means the earliest waiting message of each key is the one found.
   */
  private nextRunnable(): number | undefined {
    if (this.inFlight.size >= this.limits.perPartition) return undefined;
    for (let i = this.firstUnstarted; i < this.messages.length; i++) {
      if (!this.started[i] && !this.busyKeys.has(this.messages[i].key)) return i;
    }
    return undefined;
  }

  private start(
    index: number,
    release: () => void,
    handle: (message: M) => Promise<unknown>,
    hooks: BatchHooks,
  ): void {
    const message = this.messages[index];
    this.started[index] = true;
    this.busyKeys.add(message.key);
    while (this.firstUnstarted < this.messages.length && this.started[this.firstUnstarted])
      this.firstUnstarted++;

    const work: Promise<void> = Promise.resolve()
      .then(() => handle(message))
      .then(
        () => this.markFinished(index, hooks),
        (error: unknown) => this.markFailed(index, error),
      )
      .finally(() => {
        release();
        this.busyKeys.delete(message.key);
        this.inFlight.delete(work);
        hooks.onSettled?.();
        this.wakeDispatcher?.();
        this.wakeDispatcher = null;
      });
    this.inFlight.add(work);
  }

  private markFinished(index: number, hooks: BatchHooks): void {
    this.finished[index] = true;
    const before = this.finishedPrefix;
    while (this.finishedPrefix < this.messages.length && this.finished[this.finishedPrefix])
      this.finishedPrefix++;
    if (this.finishedPrefix === before) return;
    try {
      hooks.onCommittable(this.messages[this.finishedPrefix - 1].offset);
    } catch (error) {
      this.markFailed(index, error);
    }
  }

  private markFailed(index: number, error: unknown): void {
    // The first failure is the one reported; later ones come from messages already running.
    if (!this.failure) this.failure = { index, error };
  }

  private oneSettled(): Promise<void> {
    return new Promise((resolve) => (this.wakeDispatcher = resolve));
  }

  private outcome(): BatchOutcome {
    const committableOffset =
      this.finishedPrefix > 0 ? this.messages[this.finishedPrefix - 1].offset : undefined;
    if (this.failure) {
      return {
        status: 'failed',
        committableOffset,
        failedOffset: this.messages[this.failure.index].offset,
        error: this.failure.error,
      };
    }
    return {
      status: this.finishedPrefix === this.messages.length ? 'completed' : 'stopped',
      committableOffset,
    };
  }
}
