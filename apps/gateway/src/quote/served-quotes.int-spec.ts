import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { RoutePlan } from '@swapgw/contracts';
import { dropDatabase, prepareDatabase, withDatabase } from '@swapgw/persistence';
import { SystemClock } from '@swapgw/runtime';
import { countStatements, StatementCounter, testEnv } from '@swapgw/testing';
import { gatewayDatabaseOptions, gatewayDataSourceOptions } from '../database/gateway-data-source';
import { SERVED_QUOTES_PER_INSERT, ServedQuotes } from './served-quotes.repository';

// Served quotes on a real PostgreSQL database: what a build finds of the quotes a burst recorded,
// and how many inserts the burst cost.

const planOf = (routeId: string, amountIn: string) =>
  ({
    routeId,
    fromChain: 'devnet-a',
    toChain: 'devnet-a',
    amountIn,
    expectedAmountOut: '1000',
    legs: [{ minAmountOut: '990', note: 'quoted with "quotes" and a \\ backslash' }],
  }) as unknown as RoutePlan;

describe('ServedQuotes on PostgreSQL', () => {
  const url = withDatabase(testEnv().databaseUrl, `swapgw_int_gw_served_${process.pid}`);
  let dataSource: DataSource;
  let served: ServedQuotes;
  let inserts: StatementCounter;

  beforeAll(async () => {
    await prepareDatabase(gatewayDatabaseOptions(url));
    dataSource = await new DataSource(gatewayDataSourceOptions(url, [], 4)).initialize();
    inserts = countStatements(dataSource, 'INSERT INTO "gateway"."served_quotes"');
    served = new ServedQuotes(dataSource, new SystemClock()); // no purge loop: onModuleInit not called
  });

  beforeEach(() => inserts?.reset());

  afterAll(async () => {
    await dataSource?.destroy();
    await dropDatabase(url);
  });

  it('records a burst of quotes in a few inserts, each one readable by its owner as soon as its record resolves', async () => {
    const burst = Array.from({ length: 3 * SERVED_QUOTES_PER_INSERT }, (_, n) => ({
      quoteId: randomUUID(),
      owner: `owner-${n % 7}`,
      plans: [planOf('a', String(n)), planOf('b', String(n + 1))],
    }));
    const expiresAtMs = Date.now() + 60_000;
    await Promise.all(burst.map((q) => served.record(q.quoteId, q.owner, expiresAtMs, q.plans)));

    expect(inserts.count).toBeLessThanOrEqual(2 + 3);
    for (const q of [burst[0], burst[1], burst[burst.length - 1]]) {
      expect(await served.planFor(q.owner, q.quoteId, 'b')).toEqual(q.plans[1]);
      await expect(served.planFor('another-owner', q.quoteId, 'b')).rejects.toMatchObject({
        code: 'QUOTE_NOT_FOUND',
      });
      await expect(served.planFor(q.owner, q.quoteId, 'c')).rejects.toMatchObject({ code: 'UNKNOWN_ROUTE' });
    }
    const [{ count }] = await dataSource.query(
      `SELECT count(*)::int AS "count" FROM "gateway"."served_quotes" WHERE "quote_id" = ANY($1::varchar[])`,
      [burst.map((q) => q.quoteId)],
    );
    expect(count).toBe(burst.length);
  });

  it('keeps the first record of a quote id, whether a later one is in the same insert or another', async () => {
    const expiresAtMs = Date.now() + 60_000;
    const acrossInserts = randomUUID();
    await served.record(acrossInserts, 'first', expiresAtMs, [planOf('a', '1')]);
    await served.record(acrossInserts, 'second', expiresAtMs, [planOf('a', '2')]);
    expect(await served.planFor('first', acrossInserts, 'a')).toEqual(planOf('a', '1'));
    await expect(served.planFor('second', acrossInserts, 'a')).rejects.toMatchObject({
      code: 'QUOTE_NOT_FOUND',
    });

    // Two records take both inserts in flight; the next two wait and go together, in order.
    const withinOneInsert = randomUUID();
    inserts.reset();
    await Promise.all([
      served.record(randomUUID(), 'filler', expiresAtMs, [planOf('a', '0')]),
      served.record(randomUUID(), 'filler', expiresAtMs, [planOf('a', '0')]),
      served.record(withinOneInsert, 'first', expiresAtMs, [planOf('a', '1')]),
      served.record(withinOneInsert, 'second', expiresAtMs, [planOf('a', '2')]),
    ]);
    expect(inserts.count).toBe(3);
    expect(await served.planFor('first', withinOneInsert, 'a')).toEqual(planOf('a', '1'));
    await expect(served.planFor('second', withinOneInsert, 'a')).rejects.toMatchObject({
      code: 'QUOTE_NOT_FOUND',
    });
  });

  it('answers an expired quote QUOTE_EXPIRED', async () => {
    const quoteId = randomUUID();
    await served.record(quoteId, 'owner', Date.now() - 1, [planOf('a', '1')]);
    await expect(served.planFor('owner', quoteId, 'a')).rejects.toMatchObject({ code: 'QUOTE_EXPIRED' });
  });
});
