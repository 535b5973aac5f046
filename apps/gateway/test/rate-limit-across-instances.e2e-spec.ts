import { api, ApiClient, ApiResponse, waitFor } from '@swapgw/testing';
import { ProbeModule } from './support/probe.module';
import { dropTestDatabase, startTestGateway, TestGateway, testDatabaseUrl } from './support/test-gateway';

// Each gateway decides from memory and reconciles with the others through PostgreSQL every
// RATE_LIMIT_SYNC_INTERVAL_MS. docs/api-conventions.md (Limits) bounds what two instances accept together in one
// window: at least the limit, at most limit + (instances - 1) x R, R = requests one instance accepts
// within one sync period, and never more than instances x limit.

const LIMIT = 10;
const WINDOW_SECONDS = 3600;
const SYNC_INTERVAL_MS = 200;
const INSTANCES = 2;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A window boundary in the middle of a test would restart the count: wait it out if it is close. */
async function awayFromWindowEnd(): Promise<void> {
  const leftMs = WINDOW_SECONDS * 1000 - (Date.now() % (WINDOW_SECONDS * 1000));
  if (leftMs < 60_000) await sleep(leftMs + 1000);
}

describe('rate limit shared by two gateways on one database', () => {
  const databaseUrl = testDatabaseUrl('ratelimit');
  let first: TestGateway;
  let second: TestGateway;

  beforeAll(async () => {
    const env = {
      RATE_LIMIT_REQUESTS: String(LIMIT),
      RATE_LIMIT_WINDOW_SECONDS: String(WINDOW_SECONDS),
      RATE_LIMIT_SYNC_INTERVAL_MS: String(SYNC_INTERVAL_MS),
    };
    [first, second] = await Promise.all([
      startTestGateway({ databaseUrl, extraModules: [ProbeModule], env }),
      startTestGateway({ databaseUrl, extraModules: [ProbeModule], env }),
    ]);
  });

  beforeEach(awayFromWindowEnd, 70_000);

  afterAll(async () => {
    try {
      await Promise.all([first?.close(), second?.close()]);
    } finally {
      await dropTestDatabase(databaseUrl);
    }
  });

  /** What the gateways have added to the shared counter for this key so far (all windows). */
  async function sharedCount(key: string): Promise<number> {
    const rows: Array<{ total: number }> = await first.dataSource.query(
      `SELECT coalesce(sum(w."request_count"), 0)::int AS total
       FROM "gateway"."rate_limit_windows" w JOIN "gateway"."api_keys" k ON k."id" = w."api_key_id"
       WHERE k."prefix" = $1`,
      [key.slice(4, 12)],
    );
    return rows[0].total;
  }

  function expectRateLimitHeaders(res: ApiResponse): void {
    expect(res.headers['ratelimit-limit']).toBe(String(LIMIT));
    expect(Number(res.headers['ratelimit-remaining'])).toBeGreaterThanOrEqual(0);
    const reset = Number(res.headers['ratelimit-reset']);
    expect(reset).toBeGreaterThan(0);
    expect(reset).toBeLessThanOrEqual(WINDOW_SECONDS);
  }

  it('a single gateway counts down exactly and answers 429 RATE_LIMITED with the same headers as before', async () => {
    const client = api(first.baseUrl, await first.createKey('single-gateway'));
    const remaining: number[] = [];
    for (let i = 0; i < LIMIT; i++) {
      const res = await client.get('/test-probe/query');
      expect(res.status).toBe(200);
      expectRateLimitHeaders(res);
      remaining.push(Number(res.headers['ratelimit-remaining']));
    }
    expect(remaining).toEqual(Array.from({ length: LIMIT }, (_, i) => LIMIT - 1 - i));

    const limited = await client.get('/test-probe/query');
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe('RATE_LIMITED');
    expect(limited.body.error.details).toMatchObject({
      limit: LIMIT,
      retryAfterSeconds: Number(limited.headers['retry-after']),
    });
    expect(limited.body.meta.requestId).toBe(limited.headers['x-request-id']);
    expectRateLimitHeaders(limited);
    expect(limited.headers['ratelimit-remaining']).toBe('0');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.headers['ratelimit-reset']).toBe(limited.headers['retry-after']);
  });

  it('alternating as fast as possible, both gateways together accept at least the limit and at most the bound', async () => {
    const key = await first.createKey('burst');
    const clients: ApiClient[] = [api(first.baseUrl, key), api(second.baseUrl, key)];
    const refusedBy = new Set<number>();
    let accepted = 0;
    let sent = 0;
    // Until both have refused (each has learnt it is over), with a cap far above instances x limit.
    while (refusedBy.size < INSTANCES && sent < 20 * LIMIT) {
      const which = sent % INSTANCES;
      const res = await clients[which].get('/test-probe/query');
      sent += 1;
      expect([200, 429]).toContain(res.status);
      expectRateLimitHeaders(res);
      if (res.status === 200) accepted += 1;
      else refusedBy.add(which);
    }
    expect(refusedBy.size).toBe(INSTANCES);
    expect(accepted).toBeGreaterThanOrEqual(LIMIT);
    // R can never exceed the limit (an instance's own count is part of what it decides on).
    expect(accepted).toBeLessThanOrEqual(INSTANCES * LIMIT);

    // Every request was counted, refused ones included, and reached the shared counter: both
    // gateways now refuse, whichever one a request lands on.
    await waitFor(async () => (await sharedCount(key)) === sent, {
      timeoutMs: 10_000,
      intervalMs: 50,
      description: 'every request in the shared counter',
    });
    await sleep(3 * SYNC_INTERVAL_MS);
    for (const client of clients) {
      const res = await client.get('/test-probe/query');
      expect(res.status).toBe(429);
      expect(res.headers['ratelimit-remaining']).toBe('0');
    }
  });

  it('paced slower than the sync, two gateways accept the limit, at most one more', async () => {
    const key = await first.createKey('paced');
    const clients: ApiClient[] = [api(first.baseUrl, key), api(second.baseUrl, key)];
    const outcomes: number[] = [];
    for (let sent = 1; sent <= LIMIT + 4; sent++) {
      const res = await clients[sent % INSTANCES].get('/test-probe/query');
      expectRateLimitHeaders(res);
      outcomes.push(res.status);
      // The request has reached the shared counter, then both instances get time to read it.
      await waitFor(async () => (await sharedCount(key)) === sent, {
        timeoutMs: 10_000,
        intervalMs: 20,
        description: `request ${sent} in the shared counter`,
      });
      await sleep(2 * SYNC_INTERVAL_MS);
    }
    const accepted = outcomes.filter((s) => s === 200).length;
    expect(accepted).toBeGreaterThanOrEqual(LIMIT);
    // Bound with R = 1: an instance can have missed only the request just before (its first
    // request for the key, before it has read the key's total).
    expect(accepted).toBeLessThanOrEqual(LIMIT + (INSTANCES - 1) * 1);
    // Once refused, always refused in this window.
    expect(outcomes.slice(outcomes.indexOf(429)).every((s) => s === 429)).toBe(true);
  });
});
