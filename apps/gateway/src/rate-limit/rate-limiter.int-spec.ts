import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { dropDatabase, prepareDatabase, withDatabase } from '@swapgw/persistence';
import { loadConfig, SystemClock } from '@swapgw/runtime';
import { testEnv } from '@swapgw/testing';
import { GatewayConfig } from '../config/gateway.config';
import { gatewayDatabaseOptions, gatewayDataSourceOptions } from '../database/gateway-data-source';
import { windowPosition } from './fixed-window';
import { RateLimiter } from './rate-limiter.service';
import { RateLimitWindowRepository } from './rate-limit-window.repository';

// Two limiters, as in two gateway instances, each with its own connection pool on one real
// PostgreSQL database: they share the budget through gateway.rate_limit_windows.

const LIMIT = 20;
const config = loadConfig(GatewayConfig, {
  RATE_LIMIT_REQUESTS: String(LIMIT),
  RATE_LIMIT_WINDOW_SECONDS: '3600',
});

describe('RateLimiter instances on one PostgreSQL database', () => {
  const url = withDatabase(testEnv().databaseUrl, `swapgw_int_gw_ratelimit_${process.pid}`);
  let first: DataSource;
  let second: DataSource;
  let a: RateLimiter;
  let b: RateLimiter;

  const sharedTotal = async (apiKeyId: string): Promise<number | undefined> => {
    const rows: Array<{ request_count: number }> = await first.query(
      `SELECT "request_count" FROM "gateway"."rate_limit_windows" WHERE "api_key_id" = $1 AND "window_start" = to_timestamp($2::double precision / 1000)`,
      [apiKeyId, windowPosition(Date.now(), config.RATE_LIMIT_WINDOW_SECONDS).windowStartMs],
    );
    return rows[0]?.request_count;
  };

  beforeAll(async () => {
    await prepareDatabase(gatewayDatabaseOptions(url));
    first = await new DataSource(gatewayDataSourceOptions(url, [], 2)).initialize();
    second = await new DataSource(gatewayDataSourceOptions(url, [], 2)).initialize();
  });

  beforeEach(() => {
    // No timers (onModuleInit not called): the tests say when each instance syncs.
    a = new RateLimiter(new RateLimitWindowRepository(first), config, new SystemClock());
    b = new RateLimiter(new RateLimitWindowRepository(second), config, new SystemClock());
  });

  afterAll(async () => {
    await first?.destroy();
    await second?.destroy();
    await dropDatabase(url);
  });

  it('converges: after a sync each instance decides on the shared total', async () => {
    const key = randomUUID();
    for (let i = 0; i < 3; i++) a.consume(key);
    for (let i = 0; i < 4; i++) b.consume(key);
    // Before any sync each one only knows its own requests.
    expect(a.consume(key).remaining).toBe(LIMIT - 4);
    expect(b.consume(key).remaining).toBe(LIMIT - 5);

    await Promise.all([a.sync(), b.sync()]);
    expect(await sharedTotal(key)).toBe(9);
    // Whichever statement ran first did not see the other's counts yet; the next round reads them.
    await Promise.all([a.sync(), b.sync()]);
    expect(a.consume(key).remaining).toBe(LIMIT - 10);
    // Two rounds: a adds its 10th, then b reads it whatever order the statements ran in.
    await Promise.all([a.sync(), b.sync()]);
    await Promise.all([a.sync(), b.sync()]);
    expect(b.consume(key).remaining).toBe(LIMIT - 11);
  });

  it('stops both instances once their requests together reach the limit', async () => {
    const key = randomUUID();
    let accepted = 0;
    // Alternating, with a sync of both after every pair: each decision misses at most the other's last request.
    for (let i = 0; i < LIMIT * 2; i++) {
      if ((i % 2 === 0 ? a : b).consume(key).allowed) accepted += 1;
      if (i % 2 === 1) await Promise.all([a.sync(), b.sync()]);
    }
    expect(accepted).toBeGreaterThanOrEqual(LIMIT);
    expect(accepted).toBeLessThanOrEqual(LIMIT + 1);
    expect(a.consume(key).allowed).toBe(false);
    expect(b.consume(key).allowed).toBe(false);
  });

  it('syncs many overlapping keys concurrently from both instances without deadlocks or lost counts', async () => {
    const keys = Array.from({ length: 40 }, () => randomUUID());
    for (let round = 0; round < 5; round++) {
      // Opposite orders, so unsorted row locking would deadlock.
      for (const key of keys) a.consume(key);
      for (const key of [...keys].reverse()) b.consume(key);
      await Promise.all([a.sync(), b.sync()]);
    }
    const totals = await Promise.all(keys.map(sharedTotal));
    expect(totals).toEqual(keys.map(() => 10));
  });

  it('answers each row of a batch with its window total and creates no row for a read-only one', async () => {
    const store = new RateLimitWindowRepository(first);
    const [known, unseen] = [randomUUID(), randomUUID()];
    const windowStartMs = windowPosition(Date.now(), 3600).windowStartMs;
    await store.add([{ apiKeyId: known, windowStartMs, count: 5 }]);
    const totals = await store.add([
      { apiKeyId: known, windowStartMs, count: 0 },
      { apiKeyId: unseen, windowStartMs, count: 0 },
    ]);
    expect(totals).toEqual([{ apiKeyId: known, windowStartMs, count: 5 }]);
    expect(await sharedTotal(unseen)).toBeUndefined();
  });

  it('purges ended windows and keeps the current one', async () => {
    const store = new RateLimitWindowRepository(first);
    const key = randomUUID();
    const nowMs = Date.now();
    const current = windowPosition(nowMs, 3600).windowStartMs;
    await store.add([
      { apiKeyId: key, windowStartMs: current - 2 * 3600_000, count: 1 },
      { apiKeyId: key, windowStartMs: current, count: 2 },
    ]);
    expect(await a.purgeEndedWindows(nowMs)).toBeGreaterThanOrEqual(1);
    const left: Array<{ n: number }> = await first.query(
      `SELECT count(*)::int AS n FROM "gateway"."rate_limit_windows" WHERE "api_key_id" = $1`,
      [key],
    );
    expect(left[0].n).toBe(1);
    expect(await sharedTotal(key)).toBe(2);
  });
});
