import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { api, ApiClient, repoRoot } from '@swapgw/testing';
import { RateLimiter } from '../src/rate-limit/rate-limiter.service';
import { ProbeModule } from './support/probe.module';
import { dropTestDatabase, startTestGateway, TestGateway, testDatabaseUrl } from './support/test-gateway';

describe('API keys and rate limits', () => {
  const databaseUrl = testDatabaseUrl('auth');
  // Two instances on one database: the rate limit budget is shared between them.
  let first: TestGateway;
  let second: TestGateway;
  let key: string;

  beforeAll(async () => {
    const env = { RATE_LIMIT_REQUESTS: '6', RATE_LIMIT_WINDOW_SECONDS: '3600', AUTH_CACHE_TTL_MS: '0' };
    // Started together: migrations run under an advisory lock, so they do not race.
    [first, second] = await Promise.all([
      startTestGateway({ databaseUrl, extraModules: [ProbeModule], env }),
      startTestGateway({ databaseUrl, extraModules: [ProbeModule], env }),
    ]);
    key = await first.createKey('limited-owner');
  });

  afterAll(async () => {
    try {
      await Promise.all([first?.close(), second?.close()]);
    } finally {
      await dropTestDatabase(databaseUrl);
    }
  });

  describe('authentication', () => {
    let valid: string;
    let revoked: string;

    beforeAll(async () => {
      valid = await first.createKey('auth-owner');
      revoked = await first.createKey('revoked-owner');
      await first.revokeKey(revoked);
    });

    it('answers the same 401 UNAUTHORIZED body for missing, malformed, unknown and revoked keys', async () => {
      const wellFormedUnknown = `sgw_${'A'.repeat(43)}`;
      const sameKeyPrefixWrongSecret = `${valid.slice(0, 12)}${'B'.repeat(43 - 8)}`;
      const attempts: Array<Record<string, string>> = [
        {},
        { authorization: 'Basic dXNlcjpwYXNz' },
        { authorization: 'Bearer' },
        { authorization: 'Bearer not-a-key' },
        { authorization: `Bearer ${wellFormedUnknown}` },
        { authorization: `Bearer ${sameKeyPrefixWrongSecret}` },
        { authorization: `Bearer ${revoked}` },
      ];
      const bodies: unknown[] = [];
      for (const headers of attempts) {
        const res = await api(first.baseUrl).get('/test-probe/query', {
          headers: { ...headers, 'x-request-id': 'fixed-id' },
        });
        expect(res.status).toBe(401);
        expect(res.headers['ratelimit-limit']).toBeUndefined();
        bodies.push({ ...res.body, meta: { ...res.body.meta, timestamp: 'ignored' } });
      }
      expect(new Set(bodies.map((b) => JSON.stringify(b))).size).toBe(1);
      expect(bodies[0]).toEqual({
        error: { code: 'UNAUTHORIZED', message: 'Missing or invalid API key' },
        meta: { requestId: 'fixed-id', timestamp: 'ignored' },
      });
    });

    it('accepts a valid key, case-insensitive scheme', async () => {
      const res = await api(first.baseUrl).get('/test-probe/query', {
        headers: { authorization: `bearer ${valid}` },
      });
      expect(res.status).toBe(200);
    });

    it('stops accepting a key once revoked (cache TTL 0 here)', async () => {
      const owner = await first.createKey('soon-revoked');
      expect((await api(first.baseUrl, owner).get('/test-probe/query')).status).toBe(200);
      await first.revokeKey(owner);
      expect((await api(second.baseUrl, owner).get('/test-probe/query')).status).toBe(401);
    });

    it('serves /health without a key', async () => {
      const res = await api(first.baseUrl).get('/health');
      expect([200, 503]).toContain(res.status);
      expect(res.body.data.checks).toBeDefined();
    });
  });

  describe('keys CLI (npm run keys -- ...)', () => {
    const cli = path.join(repoRoot, 'dist', 'apps', 'gateway', 'src', 'cli', 'keys.js');
    const keys = async (...args: string[]) =>
      promisify(execFile)(process.execPath, [cli, ...args], {
        cwd: repoRoot,
        env: { ...process.env, DATABASE_URL: databaseUrl },
        timeout: 60_000,
      });

    beforeAll(() => {
      if (!fs.existsSync(cli)) throw new Error(`${cli} is missing: run npm run build first`);
    });

    it('creates a key printed alone on the last line, lists it, and revokes it by prefix', async () => {
      const created = await keys('create', '--owner', 'cli-owner');
      const lines = created.stdout.trim().split('\n');
      const key = lines[lines.length - 1];
      expect(key).toMatch(/^sgw_[A-Za-z0-9_-]{43}$/);
      expect((await api(first.baseUrl, key).get('/test-probe/query')).status).toBe(200);

      const prefix = key.slice(4, 12);
      const listed = await keys('list');
      const row = listed.stdout.split('\n').find((line) => line.startsWith(prefix));
      expect(row).toContain('cli-owner');
      expect(listed.stdout).not.toContain(key);

      const revoked = await keys('revoke', prefix);
      expect(revoked.stdout).toContain(`revoked ${prefix}`);
      expect((await api(first.baseUrl, key).get('/test-probe/query')).status).toBe(401);
      await expect(keys('revoke', prefix)).rejects.toMatchObject({ code: 1 });
    });

    it('refuses an unknown command with usage and exit code 2', async () => {
      await expect(keys('rotate')).rejects.toMatchObject({
        code: 2,
        stderr: expect.stringContaining('Usage'),
      });
    });
  });

  describe('rate limits', () => {
    /**
     * What RATE_LIMIT_SYNC_INTERVAL_MS does on its own (docs/api-conventions.md, Limits): both instances add their
     * counts to PostgreSQL, then both read back the other's. Four rounds, because a call joins a
     * round the timer may have started before the last request was counted.
     */
    const syncInstances = async () => {
      for (let round = 0; round < 4; round++)
        await Promise.all([first, second].map((g) => g.app.get(RateLimiter).sync()));
    };

    it('counts every authenticated request across instances and answers 429 RATE_LIMITED with Retry-After', async () => {
      const clients: ApiClient[] = [api(first.baseUrl, key), api(second.baseUrl, key)];
      const remaining: number[] = [];
      for (let i = 0; i < 6; i++) {
        // Polling counts too: alternate instances and include an error response.
        const res =
          i === 3
            ? await clients[i % 2].get('/no/such/route')
            : await clients[i % 2].get('/test-probe/query');
        await syncInstances();
        if (i !== 3) {
          expect(res.status).toBe(200);
          expect(res.headers['ratelimit-limit']).toBe('6');
          expect(Number(res.headers['ratelimit-reset'])).toBeGreaterThan(0);
          remaining.push(Number(res.headers['ratelimit-remaining']));
        }
      }
      // The unknown route is not counted (no handler, no guard): 5 counted requests. The second
      // instance decides its first request for this key before it has read the key's total (one
      // request of the overshoot bound of docs/api-conventions.md); from then on both count every request.
      expect(remaining).toEqual([5, 5, 3, 2, 1]);

      const lastAllowed = await clients[0].get('/test-probe/query');
      expect(lastAllowed.status).toBe(200);
      expect(lastAllowed.headers['ratelimit-remaining']).toBe('0');
      await syncInstances();

      const limited = await clients[1].get('/test-probe/query');
      expect(limited.status).toBe(429);
      expect(limited.body.error.code).toBe('RATE_LIMITED');
      expect(limited.body.meta.requestId).toBe(limited.headers['x-request-id']);
      expect(limited.headers['ratelimit-remaining']).toBe('0');
      const retryAfter = Number(limited.headers['retry-after']);
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(3600);
      expect(limited.headers['ratelimit-reset']).toBe(limited.headers['retry-after']);
    });

    it('limits per API key: another key of the same deployment is unaffected', async () => {
      const other = await first.createKey('unlimited-owner');
      const res = await api(first.baseUrl, other).get('/test-probe/query');
      expect(res.status).toBe(200);
      expect(res.headers['ratelimit-remaining']).toBe('5');
    });

    it('sets the rate limit headers on authenticated error responses too', async () => {
      const fresh = await first.createKey('error-owner');
      const res = await api(first.baseUrl, fresh).post('/test-probe/echo', { amount: 'abc' });
      expect(res.status).toBe(400);
      expect(res.headers['ratelimit-limit']).toBe('6');
      expect(res.headers['ratelimit-remaining']).toBe('5');
    });
  });
});
