import { AsyncLocalStorage } from 'node:async_hooks';
import * as pg from 'pg';
import { observeConnectionWait } from '@swapgw/runtime';

/**
 * Which statements get a service's next free pooled connection when all are busy. A pool is first
 * come, first served: under a flood, the statements a client's build waits on (its Idempotency-Key
 * claim, its swap's row) queued behind a thousand quotes' rows, signing polls' reads and the
 * projector's writes that asked first (issue 44: a zero-wait build's two statements waited seconds
 * each for a connection). Three lanes, each served in order, a lane only when those before it are
 * empty:
 * - `command`: a command its client waits on (a build, an order): finishing the swaps clients have
 *   started goes before starting new ones;
 * - `request`: a request its client waits on that starts something (a quote's served routes);
 * - everything else: polls only look for news, and the projector's writes are what they find.
 */
export type ConnectionPriority = 'command' | 'request';

const LANES: readonly (ConnectionPriority | 'other')[] = ['command', 'request', 'other'];

const connectionPriority = new AsyncLocalStorage<ConnectionPriority>();

/** Runs `work` (and everything it awaits) with its database connections taken in `priority`'s lane. */
export function withConnectionPriority<T>(priority: ConnectionPriority, work: () => T): T {
  return connectionPriority.run(priority, work);
}

/** The lane of the caller's connections: its `withConnectionPriority`, else 'other'. */
export function connectionLane(): ConnectionPriority | 'other' {
  return connectionPriority.getStore() ?? 'other';
}

/** The same message as pg-pool's own wait timeout, so `isDatabaseUnavailable` reads it the same. */
const WAIT_TIMEOUT_MESSAGE = 'timeout exceeded when trying to connect';

interface Waiter {
  grant(): void;
  refuse(error: Error): void;
}

/**
 * `max` permits, one per pooled connection, handed out lane by lane (LANES). The pool never has
 * more clients out than permits, so pg-pool's own queue stays empty and this one decides the order.
 */
export class ConnectionPermits {
  private free: number;
  private readonly queues: Record<ConnectionPriority | 'other', Waiter[]> = {
    command: [],
    request: [],
    other: [],
  };

  constructor(
    max: number,
    private readonly waitTimeoutMs: number,
  ) {
    if (!Number.isInteger(max) || max < 1)
      throw new Error(`pool size must be a positive integer, got ${max}`);
    this.free = max;
  }

  /** Resolves once a permit is the caller's; rejects after `waitTimeoutMs` (0: waits without bound). */
  acquire(lane: ConnectionPriority | 'other'): Promise<void> {
    if (this.free > 0) {
      this.free -= 1;
      observeConnectionWait(lane, 0);
      return Promise.resolve();
    }
    const queue = this.queues[lane];
    const queuedAt = performance.now();
    return new Promise<void>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const leave = (error: Error) => {
        if (timer) clearTimeout(timer);
        const at = queue.indexOf(waiter);
        if (at >= 0) queue.splice(at, 1);
        reject(error);
      };
      const waiter: Waiter = {
        grant: () => {
          if (timer) clearTimeout(timer);
          observeConnectionWait(lane, (performance.now() - queuedAt) / 1000);
          resolve();
        },
        refuse: leave,
      };
      queue.push(waiter);
      // The bound never keeps a process alive on its own (a pool ended with waiters: see refuseAll).
      if (this.waitTimeoutMs > 0)
        timer = setTimeout(() => leave(new Error(WAIT_TIMEOUT_MESSAGE)), this.waitTimeoutMs).unref();
    });
  }

  /** Every waiter is refused with `error` (the pool was ended). */
  refuseAll(error: Error): void {
    for (const lane of LANES) for (const waiter of [...this.queues[lane]]) waiter.refuse(error);
  }

  /** A permit comes back: to the first waiter of the first lane that has one, else it is free. */
  release(): void {
    for (const lane of LANES) {
      const next = this.queues[lane].shift();
      if (next) return next.grant();
    }
    this.free += 1;
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
    const checkout = this.permits.acquire(connectionLane()).then(() =>
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

  /** Ends the pool as pg-pool does; statements still waiting for a connection are refused, as its own waiters are. */
  override end(): Promise<void>;
  override end(callback: () => void): void;
  override end(callback?: () => void): Promise<void> | void {
    this.permits.refuseAll(new Error('Cannot use a pool after calling end on the pool'));
    return callback ? super.end(callback) : super.end();
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
