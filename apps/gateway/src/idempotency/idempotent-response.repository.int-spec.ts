import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { RoutePlan } from '@swapgw/contracts';
import { dropDatabase, prepareDatabase, withDatabase } from '@swapgw/persistence';
import { loadConfig, SystemClock } from '@swapgw/runtime';
import { countStatements, StatementCounter, testEnv } from '@swapgw/testing';
import { GatewayConfig } from '../config/gateway.config';
import { gatewayDatabaseOptions, gatewayDataSourceOptions } from '../database/gateway-data-source';
import { servedRouteReadOf, ServedQuotes } from '../quote/served-quotes.repository';
import { CLAIMS_PER_STATEMENT, IdempotentResponseRepository } from './idempotent-response.repository';
import { requestFingerprint } from './request-fingerprint';

// Idempotency-Key claims on a real PostgreSQL database: a burst of builds' claims taken in a few
// statements, each with its own read; a key asked for twice in one burst; what later requests find.

const config = loadConfig(GatewayConfig, {});
const ROUTE = 'POST /swap/build';

describe('IdempotentResponseRepository.claim on PostgreSQL', () => {
  const url = withDatabase(testEnv().databaseUrl, `swapgw_int_gw_claims_${process.pid}`);
  let dataSource: DataSource;
  let claims: IdempotentResponseRepository;
  let served: ServedQuotes;
  let claimStatements: StatementCounter;

  beforeAll(async () => {
    await prepareDatabase(gatewayDatabaseOptions(url));
    dataSource = await new DataSource(gatewayDataSourceOptions(url, [], 4)).initialize();
    claimStatements = countStatements(dataSource, 'INSERT INTO "gateway"."idempotency_records"');
    claims = new IdempotentResponseRepository(dataSource, config); // no purge loop: onModuleInit not called
    served = new ServedQuotes(dataSource, new SystemClock());
  });

  beforeEach(() => claimStatements?.reset());

  afterAll(async () => {
    await dataSource?.destroy();
    await dropDatabase(url);
  });

  const scopeOf = (owner: string, key: string) => ({ owner, routeKey: ROUTE, idempotencyKey: key });
  /** A request's fingerprint, as the interceptor computes it (64 hex digits). */
  const fp = (name: string) => requestFingerprint({ name }, {});
  const planOf = (routeId: string, amountIn: string) =>
    ({ routeId, fromChain: 'devnet-a', toChain: 'devnet-a', amountIn, legs: [] }) as unknown as RoutePlan;

  it("claims a burst's keys in a few statements, each claim with what its own read found", async () => {
    const owner = `burst-${randomUUID()}`;
    const builds = Array.from({ length: 2 * CLAIMS_PER_STATEMENT + 50 }, (_, n) => ({
      key: `key-${n}`,
      quoteId: randomUUID(),
      amountIn: String(1000 + n),
    }));
    const expiresAtMs = Date.now() + 60_000;
    // Every third build names a quote that was never served: its claim is taken, its read finds nothing.
    await Promise.all(
      builds
        .filter((_, n) => n % 3 !== 0)
        .map((build) => served.record(build.quoteId, owner, expiresAtMs, [planOf('r1', build.amountIn)])),
    );

    const outcomes = await Promise.all(
      builds.map((build) =>
        claims.claim(
          scopeOf(owner, build.key),
          fp(build.key),
          servedRouteReadOf(owner, { quoteId: build.quoteId, routeId: 'r1' }),
        ),
      ),
    );

    expect(claimStatements.count).toBeLessThanOrEqual(2 + 3);
    outcomes.forEach((outcome, n) => {
      expect(outcome.outcome).toBe('claimed');
      const read = outcome.outcome === 'claimed' ? outcome.readWithClaim : undefined;
      if (n % 3 === 0) expect(read).toBeNull();
      else expect(read).toMatchObject({ expiresAtMs, plan: { routeId: 'r1', amountIn: builds[n].amountIn } });
    });
    const ids = new Set(outcomes.map((outcome) => (outcome.outcome === 'claimed' ? outcome.claim.id : '')));
    expect(ids.size).toBe(builds.length);
    const [{ n }] = await dataSource.query(
      `SELECT count(*)::int AS n FROM "gateway"."idempotency_records" WHERE "owner" = $1 AND "status" = 'in_progress'`,
      [owner],
    );
    expect(n).toBe(builds.length);
  });

  it('gives a key asked for twice in one burst to the first request: the same request is told it is in progress, another one conflicts', async () => {
    const owner = `twice-${randomUUID()}`;
    // Two claims take both statements in flight; the next ones wait and go together.
    const outcomes = await Promise.all([
      claims.claim(scopeOf(owner, 'filler-1'), fp('fp')),
      claims.claim(scopeOf(owner, 'filler-2'), fp('fp')),
      claims.claim(scopeOf(owner, 'k'), fp('fp-a')),
      claims.claim(scopeOf(owner, 'k'), fp('fp-a')),
      claims.claim(scopeOf(owner, 'k'), fp('fp-b')),
    ]);

    expect(outcomes.map((outcome) => outcome.outcome)).toEqual([
      'claimed',
      'claimed',
      'claimed',
      'in_progress',
      'conflict',
    ]);
    expect(claimStatements.count).toBe(3);
  });

  it('replays a completed answer, and lets a released key be claimed again', async () => {
    const owner = `later-${randomUUID()}`;
    const first = await claims.claim(scopeOf(owner, 'done'), fp('fp'));
    const second = await claims.claim(scopeOf(owner, 'released'), fp('fp'));
    if (first.outcome !== 'claimed' || second.outcome !== 'claimed') throw new Error('not claimed');
    await claims.complete(first.claim, 202, { kind: 'data', data: { swapId: 's' } });
    await claims.release(second.claim);

    expect(await claims.claim(scopeOf(owner, 'done'), fp('fp'))).toEqual({
      outcome: 'replay',
      status: 202,
      response: { kind: 'data', data: { swapId: 's' } },
    });
    expect(await claims.claim(scopeOf(owner, 'done'), fp('fp-other'))).toEqual({ outcome: 'conflict' });
    const again = await claims.claim(scopeOf(owner, 'released'), fp('fp'));
    expect(again.outcome).toBe('claimed');
    expect(again.outcome === 'claimed' && again.claim.id).not.toBe(second.claim.id);
  });
});
