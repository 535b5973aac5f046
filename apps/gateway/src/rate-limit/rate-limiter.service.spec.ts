import { Logger } from '@nestjs/common';
import { loadConfig, ManualClock } from '@swapgw/runtime';
import { DataSource } from 'typeorm';
import { GatewayConfig } from '../config/gateway.config';
import { RateLimitWindowRepository } from './rate-limit-window.repository';
import { RateLimiter } from './rate-limiter.service';

const KEY = '00000000-0000-4000-8000-0000000000aa';
const NOW = 1_800_000_030_000; // 30 s into a 60 s window
const LIMIT = 10;

/**
 * Stands in for gateway.rate_limit_windows: answers the store's INSERT ... RETURNING (params: keys,
 * window starts, counts) like PostgreSQL would, counts the statements, and can be made unreachable.
 */
class FakeWindowsTable {
  readonly totals = new Map<string, number>();
  statements = 0;
  down = false;

  readonly dataSource = {
    query: async (sql: string, params: unknown[]): Promise<unknown> => {
      if (this.down)
        throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
      this.statements += 1;
      if (sql.trimStart().startsWith('DELETE')) return [[], 0];
      const [keys, windows, counts] = params as [string[], number[], number[]];
      return keys.flatMap((apiKeyId, i) => {
        const id = `${apiKeyId}@${windows[i]}`;
        if (counts[i] > 0) this.totals.set(id, (this.totals.get(id) ?? 0) + counts[i]);
        const total = this.totals.get(id);
        return total === undefined
          ? []
          : [{ api_key_id: apiKeyId, window_start_ms: String(windows[i]), request_count: total }];
      });
    },
  } as unknown as DataSource;
}

const config = (): GatewayConfig =>
  loadConfig(GatewayConfig, {
    RATE_LIMIT_REQUESTS: String(LIMIT),
    RATE_LIMIT_WINDOW_SECONDS: '60',
    RATE_LIMIT_SYNC_INTERVAL_MS: '1000',
  });

const limiterOn = (table: FakeWindowsTable) =>
  new RateLimiter(new RateLimitWindowRepository(table.dataSource), config(), new ManualClock(NOW));

describe('RateLimiter', () => {
  let warn: jest.SpyInstance;

  beforeEach(() => {
    warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
  });

  afterEach(() => jest.restoreAllMocks());

  it('decides without touching the database and reports the same numbers as before', () => {
    const table = new FakeWindowsTable();
    const limiter = limiterOn(table);
    const decisions = Array.from({ length: LIMIT + 1 }, () => limiter.consume(KEY, NOW));
    expect(table.statements).toBe(0);
    expect(decisions.map((d) => d.remaining)).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 0]);
    expect(decisions[LIMIT - 1]).toEqual({ allowed: true, limit: LIMIT, remaining: 0, resetSeconds: 30 });
    expect(decisions[LIMIT]).toEqual({ allowed: false, limit: LIMIT, remaining: 0, resetSeconds: 30 });
  });

  it("two instances learn each other's counts at their next sync, in one statement each", async () => {
    const table = new FakeWindowsTable();
    const a = limiterOn(table);
    const b = limiterOn(table);
    for (let i = 0; i < 4; i++) a.consume(KEY, NOW);
    for (let i = 0; i < 3; i++) b.consume(KEY, NOW);
    await a.sync(NOW);
    await b.sync(NOW);
    expect(table.statements).toBe(2);
    // b added last and learnt the total 7 from its own statement: its next request is the 8th.
    expect(b.consume(KEY, NOW).remaining).toBe(LIMIT - 8);
    // a only knew 4 (its statement ran first), and learns the rest at its next sync.
    expect(a.consume(KEY, NOW).remaining).toBe(LIMIT - 5);
    await a.sync(NOW);
    expect(table.totals.get(`${KEY}@${NOW - 30_000}`)).toBe(8); // b's 8th is not synced yet
    expect(a.consume(KEY, NOW).remaining).toBe(LIMIT - 9);
    expect(a.consume(KEY, NOW)).toMatchObject({ allowed: true, remaining: 0 });
    expect(a.consume(KEY, NOW).allowed).toBe(false);
  });

  it("a quiet instance still learns the others' counts at its next sync", async () => {
    const table = new FakeWindowsTable();
    const a = limiterOn(table);
    const b = limiterOn(table);
    a.consume(KEY, NOW);
    await a.sync(NOW);
    for (let i = 0; i < 6; i++) b.consume(KEY, NOW);
    await b.sync(NOW);
    await a.sync(NOW); // nothing new on a: it only reads the total
    expect(table.totals.get(`${KEY}@${NOW - 30_000}`)).toBe(7);
    expect(a.consume(KEY, NOW).remaining).toBe(LIMIT - 8);
  });

  it('keeps limiting while PostgreSQL is down, warns at most once a minute, and adds everything once it is back', async () => {
    const table = new FakeWindowsTable();
    const limiter = limiterOn(table);
    table.down = true;
    for (let second = 0; second < 8; second++) {
      limiter.consume(KEY, NOW + second * 1000);
      await expect(limiter.sync(NOW + second * 1000)).resolves.toBeUndefined();
    }
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0][0]).toContain('ECONNREFUSED');
    await limiter.sync(NOW + 61_000);
    expect(warn).toHaveBeenCalledTimes(2);

    table.down = false;
    await limiter.sync(NOW + 62_000);
    // The 8 requests counted during the outage reach the shared counter of their window.
    expect(table.totals.get(`${KEY}@${Math.floor(NOW / 60_000) * 60_000}`)).toBe(8);
  });

  it('limits on local counts alone while the database is down (still refuses past the limit)', async () => {
    const table = new FakeWindowsTable();
    const limiter = limiterOn(table);
    table.down = true;
    const allowed: boolean[] = [];
    for (let i = 0; i < LIMIT + 3; i++) {
      allowed.push(limiter.consume(KEY, NOW).allowed);
      await limiter.sync(NOW);
    }
    expect(allowed.filter(Boolean)).toHaveLength(LIMIT);
    expect(allowed.slice(LIMIT)).toEqual([false, false, false]);
  });

  it('syncs on its timer, stops the timer on destroy, and flushes what is left', async () => {
    jest.useFakeTimers();
    try {
      const table = new FakeWindowsTable();
      const limiter = limiterOn(table);
      limiter.onModuleInit();
      limiter.consume(KEY);
      await jest.advanceTimersByTimeAsync(1000);
      expect(table.statements).toBe(1);
      limiter.consume(KEY);
      limiter.consume(KEY);
      await limiter.onModuleDestroy();
      expect(table.statements).toBe(2);
      expect([...table.totals.values()]).toEqual([3]);
      await jest.advanceTimersByTimeAsync(10 * 60_000);
      expect(table.statements).toBe(2);
      expect(jest.getTimerCount()).toBe(0);
    } finally {
      jest.useRealTimers();
    }
  });

  it('does not hang shutdown when the final flush cannot reach PostgreSQL', async () => {
    const table = new FakeWindowsTable();
    const limiter = limiterOn(table);
    table.down = true;
    limiter.consume(KEY);
    await expect(limiter.onModuleDestroy()).resolves.toBeUndefined();
  });
});
