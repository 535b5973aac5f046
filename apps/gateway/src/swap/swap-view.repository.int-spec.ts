import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { dropDatabase, prepareDatabase, withDatabase } from '@swapgw/persistence';
import { loadConfig, SystemClock } from '@swapgw/runtime';
import { countStatements, StatementCounter, testEnv } from '@swapgw/testing';
import { GatewayConfig } from '../config/gateway.config';
import { gatewayDatabaseOptions, gatewayDataSourceOptions } from '../database/gateway-data-source';
import { HeldIdempotencyClaim, IdempotentResponseRepository } from '../idempotency';
import { swapIdOf } from './swap-id';
import { SwapViewChanges } from './swap-view-changes';
import { CREATED_ROWS_PER_STATEMENT, SwapViewRepository } from './swap-view.repository';
import { SwapViewEntity } from './swap-view.entity';

// A burst of builds' rows on a real PostgreSQL database: each build's row created once, with its
// Idempotency-Key's claim completed in the same statement, and how many statements the burst cost.

const config = loadConfig(GatewayConfig, { SWAP_VIEW_CACHE_ENTRIES: '10000' });
const clock = new SystemClock();

describe('SwapViewRepository.ensureCreated on PostgreSQL', () => {
  const url = withDatabase(testEnv().databaseUrl, `swapgw_int_gw_views_${process.pid}`);
  let dataSource: DataSource;
  let views: SwapViewRepository;
  let changes: SwapViewChanges;
  let claims: IdempotentResponseRepository;
  let rowStatements: StatementCounter;

  beforeAll(async () => {
    await prepareDatabase(gatewayDatabaseOptions(url));
    dataSource = await new DataSource(gatewayDataSourceOptions(url, [SwapViewEntity], 4)).initialize();
    rowStatements = countStatements(dataSource, 'INSERT INTO "gateway"."swap_views"');
    changes = new SwapViewChanges(dataSource, config); // no LISTEN connection: not started
    views = new SwapViewRepository(dataSource, changes, clock);
    claims = new IdempotentResponseRepository(dataSource, config);
  });

  beforeEach(() => rowStatements?.reset());

  afterAll(async () => {
    await dataSource?.destroy();
    await dropDatabase(url);
  });

  /** A build's claim on its key, as the interceptor takes it. */
  const claimFor = async (owner: string, key: string) => {
    const outcome = await claims.claim(
      { owner, routeKey: 'POST /swap/build', idempotencyKey: key },
      `fp-${key}`,
    );
    if (outcome.outcome !== 'claimed') throw new Error(`not claimed: ${outcome.outcome}`);
    return new HeldIdempotencyClaim(outcome.claim, undefined);
  };

  const storedAnswer = async (owner: string, key: string) => {
    const [row] = await dataSource.query(
      `SELECT "status", "response_status", "response_body" FROM "gateway"."idempotency_records"
        WHERE "owner" = $1 AND "route_key" = 'POST /swap/build' AND "idempotency_key" = $2`,
      [owner, key],
    );
    return row;
  };

  it("creates every build's row of a burst once, completing each build's claim with its answer, in a few statements", async () => {
    const owner = `burst-${randomUUID()}`;
    const keys = Array.from({ length: 2 * CREATED_ROWS_PER_STATEMENT + 50 }, (_, n) => `key-${n}`);
    const held = await Promise.all(keys.map((key) => claimFor(owner, key)));
    rowStatements.reset();
    const completions = held.map((claim, n) =>
      claim.completionWith(202, { swapId: swapIdOf(owner, keys[n]) }),
    );
    const created = await Promise.all(
      keys.map((key, n) =>
        views.ensureCreated(
          swapIdOf(owner, key),
          owner,
          'planning',
          null,
          1000 + n,
          undefined,
          null,
          completions[n],
        ),
      ),
    );

    expect(created.every(Boolean)).toBe(true);
    expect(rowStatements.count).toBeLessThanOrEqual(2 + 3);
    expect(held.every((claim) => claim.completed)).toBe(true);
    for (const n of [0, 1, keys.length - 1]) {
      expect(await storedAnswer(owner, keys[n])).toEqual({
        status: 'completed',
        response_status: 202,
        response_body: { kind: 'data', data: { swapId: swapIdOf(owner, keys[n]) } },
      });
      // The first poll reads the row from the cache of views, as written.
      const view = await views.findOwned(swapIdOf(owner, keys[n]), owner);
      expect(view).toMatchObject({ status: 'planning', owner, createdAtMs: 1000 + n, stepCurrent: 1 });
    }
  });

  it('leaves a row that is there already, and its claim, as they were (the build answers from the row instead)', async () => {
    const owner = `again-${randomUUID()}`;
    const swapId = swapIdOf(owner, 'k');
    expect(await views.ensureCreated(swapId, owner, 'planning', null, 1)).toBe(true);
    const claim = await claimFor(owner, 'k');
    expect(
      await views.ensureCreated(
        swapId,
        owner,
        'planning',
        null,
        2,
        undefined,
        null,
        claim.completionWith(202, {}),
      ),
    ).toBe(false);
    expect(claim.completed).toBe(false);
    expect(await storedAnswer(owner, 'k')).toMatchObject({ status: 'in_progress', response_status: null });
  });

  it('adds the quoted figures to a row created without them, and only once', async () => {
    const owner = `quoted-${randomUUID()}`;
    const swapId = swapIdOf(owner, 'k');
    const quoted = { expectedAmountOut: '1000', minAmountOut: '990' } as never;
    const later = { expectedAmountOut: '5', minAmountOut: '4' } as never;
    expect(await views.ensureCreated(swapId, owner, 'planning', 2, 1)).toBe(true);
    // Two rows take both statements in flight; the next two, for one swap, wait and go together: a
    // swap named twice in one batch is written one row at a time.
    const filler = (n: number) =>
      views.ensureCreated(swapIdOf(owner, `filler-${n}`), owner, 'planning', 2, 1);
    expect(
      await Promise.all([
        filler(1),
        filler(2),
        views.ensureCreated(swapId, owner, 'planning', 2, 2, undefined, quoted),
        views.ensureCreated(swapId, owner, 'planning', 2, 3, undefined, later),
      ]),
    ).toEqual([true, true, false, false]);
    expect(rowStatements.count).toBe(1 + 2 + 2);
    const [row] = await dataSource.query(`SELECT "quoted" FROM "gateway"."swap_views" WHERE "swap_id" = $1`, [
      swapId,
    ]);
    expect(row.quoted).toEqual({ expectedAmountOut: '1000', minAmountOut: '990' });
  });
});
