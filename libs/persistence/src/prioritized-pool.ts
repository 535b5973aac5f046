import { AsyncLocalStorage } from 'node:async_hooks';
import * as pg from 'pg';

/**
 * Which statements get a service's next free pooled connection when all are busy. A pool is first
 * come, first served: under a flood, the statements a client's quote or build waits on (the served
 * route's row, the Idempotency-Key claim, the swap's row) queued behind hundreds of signing polls'
 * reads and the projector's writes that asked first (issue 44: a zero-wait build's two statements
 * waited seconds for a connection). Work run through `asPriorityWork` takes the next free connection
 * before any other waiter; among themselves, and among the others, waiters are served in order.
 * Polls only look for news, and the projector's writes are read by those polls: they wait.
 */
const priorityWork = new AsyncLocalStorage<true>();

/** Runs `work` (and everything it awaits) with its database connections taken ahead of other work. */
export function asPriorityWork<T>(work: () => T): T {
  return priorityWork.run(true, work);
}

/** Whether the caller runs inside `asPriorityWork`. */
export function isPriorityWork(): boolean {
  return priorityWork.getStore() === true;
}

/** The same message as pg-pool's own wait timeout, so `isDatabaseUnavailable` reads it the same. */
const WAIT_TIMEOUT_MESSAGE = 'timeout exceeded when trying to connect';

interface Waiter {
  grant(): void;
}

/**
 * `max` permits, one per pooled connection, handed to priority waiters first. The pool never has
 * more clients out than permits, so pg-pool's own queue stays empty and this one decides the order.
 */
export class ConnectionPermits {
  private free: number;
  private readonly priority: Waiter[] = [];
  private readonly others: Waiter[] = [];

  constructor(
    max: number,
    private readonly waitTimeoutMs: number,
  ) {
    if (!Number.isInteger(max) || max < 1)
      throw new Error(`pool size must be a positive integer, got ${max}`);
    this.free = max;
  }

  /** Resolves once a permit is the caller's; rejects after `waitTimeoutMs` (0: waits without bound). */
  acquire(first: boolean): Promise<void> {
    if (this.free > 0) {
      this.free -= 1;
      return Promise.resolve();
    }
    const queue = first ? this.priority : this.others;
    return new Promise<void>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const waiter: Waiter = {
        grant: () => {
          if (timer) clearTimeout(timer);
          resolve();
        },
      };
      queue.push(waiter);
      if (this.waitTimeoutMs > 0)
        timer = setTimeout(() => {
          const at = queue.indexOf(waiter);
          if (at >= 0) queue.splice(at, 1);
          reject(new Error(WAIT_TIMEOUT_MESSAGE));
        }, this.waitTimeoutMs);
    });
  }

  /** A permit comes back: to the first priority waiter, else the first other one, else it is free. */
  release(): void {
    const next = this.priority.shift() ?? this.others.shift();
    if (next) next.grant();
    else this.free += 1;
  }

  get waiting(): { priority: number; others: number } {
    return { priority: this.priority.length, others: this.others.length };
  }
}

type ConnectCallback = (
  error: Error | undefined,
  client?: pg.PoolClient,
  release?: (error?: Error | boolean) => void,
) => void;

/**
 * pg's Pool with its waits in ConnectionPermits' order. Every checkout (TypeORM's query runners,
 * `pool.query`) goes through `connect`; the permit comes back with the client, once.
 */
export class PrioritizedPool extends pg.Pool {
  readonly permits: ConnectionPermits;

  constructor(options: pg.PoolConfig = {}) {
    super(options);
    this.permits = new ConnectionPermits(options.max ?? 10, options.connectionTimeoutMillis ?? 0);
  }

  override connect(): Promise<pg.PoolClient>;
  override connect(callback: ConnectCallback): void;
  override connect(callback?: ConnectCallback): Promise<pg.PoolClient> | void {
    const checkout = this.permits.acquire(isPriorityWork()).then(() =>
      super.connect().then(
        (client) => this.returningPermit(client),
        (error: unknown) => {
          this.permits.release();
          throw error;
        },
      ),
    );
    if (!callback) return checkout;
    checkout.then(
      (client) => callback(undefined, client, client.release),
      (error: Error) => callback(error),
    );
  }

  /** The client, whose release (whichever way it is called) also gives its permit back, once. */
  private returningPermit(client: pg.PoolClient): pg.PoolClient {
    const release = client.release.bind(client);
    let returned = false;
    client.release = (error?: Error | boolean) => {
      if (!returned) {
        returned = true;
        this.permits.release();
      }
      return release(error);
    };
    return client;
  }
}

/** The `pg` module as TypeORM's `driver` option takes it, its pools prioritized. */
export const prioritizedPgDriver: typeof pg = Object.create(pg, {
  Pool: { value: PrioritizedPool, enumerable: true },
});
