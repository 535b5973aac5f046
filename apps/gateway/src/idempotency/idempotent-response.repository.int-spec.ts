import { createHash, randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { dropDatabase, prepareDatabase, withDatabase } from '@swapgw/persistence';
import { loadConfig } from '@swapgw/runtime';
import { countStatements, StatementCounter, testEnv } from '@swapgw/testing';
import { GatewayConfig } from '../config/gateway.config';
import { gatewayDatabaseOptions, gatewayDataSourceOptions } from '../database/gateway-data-source';
import { servedRouteReadOf } from '../quote/served-quotes.repository';
import { CLAIMS_PER_STATEMENT, IdempotentResponseRepository } from './idempotent-response.repository';

// Claims on Idempotency-Keys as a burst of builds takes them, on a real PostgreSQL database: each
// key claimed once whatever arrives together, the served route read with each claim, and how many
// statements a burst of claims costs.

const config = loadConfig(GatewayConfig, {});
const BUILD = 'POST /swap/build';
/** A request fingerprint as the interceptor makes them (64 hex characters). */
const fp = (request: string) => createHash('sha256').update(request).digest('hex');

describe('IdempotentResponseRepository.claim on PostgreSQL', () => {
  const url = withDatabase(testEnv().databaseUrl, `swapgw_int_gw_claims_${process.pid}`);
  let dataSource: DataSource;
  let claims: IdempotentResponseRepository;
  let claimStatements: StatementCounter;

  beforeAll(async () => {
    await prepareDatabase(gatewayDatabaseOptions(url));
    dataSource = await new DataSource(gatewayDataSourceOptions(url, [], 4)).initialize();
    claimStatements = countStatements(dataSource, 'INSERT INTO "gateway"."idempotency_records"');
    claims = new IdempotentResponseRepository(dataSource, config);
  });

  beforeEach(() => claimStatements?.reset());

  afterAll(async () => {
    await dataSource?.destroy();
    await dropDatabase(url);
  });

  const scopeOf = (owner: string, key: string) => ({ owner, routeKey: BUILD, idempotencyKey: key });

  const recordsOf = async (owner: string): Promise<Array<{ idempotency_key: string; status: string }>> =>
    dataSource.query(
      `SELECT "idempotency_key", "status" FROM "gateway"."idempotency_records" WHERE "owner" = $1`,
      [owner],
    );

  /** A quote served to `owner` with one route, `route-1`, whose plan is `{ routeId, marker }`. */
  const serveQuote = async (owner: string, quoteId: string, expiresAtMs: number) =>
    dataSource.query(
      `INSERT INTO "gateway"."served_quotes" ("quote_id", "owner", "expires_at_ms", "route_plans", "created_at_ms")
       VALUES ($1, $2, $3, $4::jsonb, 0)`,
      [quoteId, owner, expiresAtMs, JSON.stringify([{ routeId: 'route-1', marker: quoteId }])],
    );

  it('claims every key of a burst once, in a few statements rather than one each', async () => {
    const owner = `burst-${randomUUID()}`;
    const keys = Array.from({ length: 2 * CLAIMS_PER_STATEMENT + 50 }, (_, n) => `key-${n}`);

    const outcomes = await Promise.all(keys.map((key) => claims.claim(scopeOf(owner, key), fp(key))));

    expect(outcomes.map((o) => o.outcome)).toEqual(keys.map(() => 'claimed'));
    const ids = outcomes.map((o) => (o.outcome === 'claimed' ? o.claim.id : ''));
    expect(new Set(ids).size).toBe(keys.length);
    const records = await recordsOf(owner);
    expect(records.map((r) => r.idempotency_key).sort()).toEqual([...keys].sort());
    expect(records.every((r) => r.status === 'in_progress')).toBe(true);
    // Two go alone (nothing in flight when they came), the rest in statements of up to 200 rows.
    expect(claimStatements.count).toBeGreaterThanOrEqual(Math.ceil(keys.length / CLAIMS_PER_STATEMENT));
    expect(claimStatements.count).toBeLessThanOrEqual(2 + Math.ceil(keys.length / CLAIMS_PER_STATEMENT) + 1);
  });

  it('gives a key asked for several times at once to one request: the same request is in progress, another conflicts', async () => {
    const owner = `retries-${randomUUID()}`;
    // Other keys around them, so that the repeats share batches with other claims.
    const requests = [
      ...Array.from({ length: 30 }, (_, n) => ({ key: `other-${n}`, fingerprint: fp(`other-${n}`) })),
      ...Array.from({ length: 5 }, () => ({ key: 'retried', fingerprint: fp('retried') })),
      { key: 'retried', fingerprint: fp('something-else') },
    ];

    const outcomes = await Promise.all(
      requests.map(({ key, fingerprint }) => claims.claim(scopeOf(owner, key), fingerprint)),
    );

    const retried = outcomes.slice(30);
    const claimed = retried.filter((o) => o.outcome === 'claimed');
    expect(claimed).toHaveLength(1);
    // The others find the key taken: in progress for the same request, a conflict for another.
    const claimedIndex = retried.findIndex((o) => o.outcome === 'claimed');
    const expected = requests
      .slice(30)
      .map(({ fingerprint }, n) =>
        n === claimedIndex
          ? 'claimed'
          : fingerprint === requests[30 + claimedIndex].fingerprint
            ? 'in_progress'
            : 'conflict',
      );
    expect(retried.map((o) => o.outcome)).toEqual(expected);
    expect(outcomes.slice(0, 30).every((o) => o.outcome === 'claimed')).toBe(true);
    expect((await recordsOf(owner)).filter((r) => r.idempotency_key === 'retried')).toHaveLength(1);
  });

  it('replays a completed answer, and takes over a key whose record expired', async () => {
    const owner = `replay-${randomUUID()}`;
    const first = await claims.claim(scopeOf(owner, 'done'), fp('done'));
    if (first.outcome !== 'claimed') throw new Error(`not claimed: ${first.outcome}`);
    await claims.complete(first.claim, 202, { kind: 'data', data: { swapId: 'the-swap' } });

    const again = await claims.claim(scopeOf(owner, 'done'), fp('done'));
    expect(again).toEqual({
      outcome: 'replay',
      status: 202,
      response: { kind: 'data', data: { swapId: 'the-swap' } },
    });

    await dataSource.query(
      `UPDATE "gateway"."idempotency_records" SET "expires_at" = now() - interval '1 second'
        WHERE "owner" = $1 AND "idempotency_key" = 'done'`,
      [owner],
    );
    const afterExpiry = await claims.claim(scopeOf(owner, 'done'), fp('new-request'));
    expect(afterExpiry.outcome).toBe('claimed');
    if (afterExpiry.outcome === 'claimed') expect(afterExpiry.claim.id).toBe(first.claim.id);
  });

  it("reads each build's served route with its claim in the shared statement: its own quote's route, null for another owner's quote", async () => {
    const owner = `reads-${randomUUID()}`;
    const stranger = `stranger-${randomUUID()}`;
    const quoteIds = Array.from({ length: 40 }, () => randomUUID());
    for (const [n, quoteId] of quoteIds.entries())
      await serveQuote(n % 4 === 3 ? stranger : owner, quoteId, 5000 + n);

    const outcomes = await Promise.all(
      quoteIds.map((quoteId, n) =>
        claims.claim(
          scopeOf(owner, `build-${n}`),
          fp(`build-${n}`),
          servedRouteReadOf(owner, { quoteId, routeId: n % 4 === 2 ? 'route-9' : 'route-1' }),
        ),
      ),
    );

    for (const [n, outcome] of outcomes.entries()) {
      expect(outcome.outcome).toBe('claimed');
      if (outcome.outcome !== 'claimed') continue;
      if (n % 4 === 3) expect(outcome.readWithClaim).toBeNull();
      else if (n % 4 === 2) expect(outcome.readWithClaim).toEqual({ expiresAtMs: 5000 + n, plan: null });
      else
        expect(outcome.readWithClaim).toEqual({
          expiresAtMs: 5000 + n,
          plan: { routeId: 'route-1', marker: quoteIds[n] },
        });
    }
    expect(claimStatements.count).toBeLessThan(quoteIds.length / 4);
  });

  it('sends no read for ids the validation refuses (a NUL character, 65 characters), and the builds claimed beside them still read theirs', async () => {
    const owner = `refused-${randomUUID()}`;
    const quoteIds = Array.from({ length: 6 }, () => randomUUID());
    for (const [n, quoteId] of quoteIds.entries()) await serveQuote(owner, quoteId, 7000 + n);
    const refusedBodies = [
      { quoteId: '\u0000', routeId: 'route-1' },
      { quoteId: quoteIds[0], routeId: 'route-\u0000' },
      { quoteId: 'q'.repeat(65), routeId: 'route-1' },
    ];
    for (const body of refusedBodies) expect(servedRouteReadOf(owner, body)).toBeUndefined();

    const bodies = [...quoteIds.map((quoteId) => ({ quoteId, routeId: 'route-1' })), ...refusedBodies];
    const outcomes = await Promise.all(
      bodies.map((body, n) =>
        claims.claim(scopeOf(owner, `mixed-${n}`), fp(`mixed-${n}`), servedRouteReadOf(owner, body)),
      ),
    );

    expect(outcomes.map((o) => o.outcome)).toEqual(bodies.map(() => 'claimed'));
    for (const [n, quoteId] of quoteIds.entries()) {
      const outcome = outcomes[n];
      if (outcome.outcome === 'claimed')
        expect(outcome.readWithClaim).toEqual({
          expiresAtMs: 7000 + n,
          plan: { routeId: 'route-1', marker: quoteId },
        });
    }
  });
});
