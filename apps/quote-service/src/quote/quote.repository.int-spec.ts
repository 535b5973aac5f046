import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { countStatements, StatementCounter } from '@swapgw/testing';
import { createQuoteTestDatabase } from '../../test/support/quote-service-test-support';
import { QUOTES_PER_INSERT, QuoteRepository, StoredQuote } from './quote.repository';

// Stored quotes on a real PostgreSQL database: a burst of quotes written in a few statements, each
// quote with its own routes, and a statement's failure reaching exactly the quotes it carried.

describe('QuoteRepository.insert on PostgreSQL', () => {
  let database: Awaited<ReturnType<typeof createQuoteTestDatabase>>;
  let dataSource: DataSource;
  let quotes: QuoteRepository;
  let inserts: StatementCounter;

  beforeAll(async () => {
    database = await createQuoteTestDatabase();
    dataSource = database.dataSource;
    inserts = countStatements(dataSource, `INSERT INTO "${database.schema}"."quotes"`);
    quotes = new QuoteRepository(dataSource);
  });

  beforeEach(() => inserts?.reset());

  afterAll(() => database?.drop());

  const quoteOf = (n: number, routes = 2): StoredQuote => {
    const id = randomUUID();
    return {
      id,
      owner: n % 5 === 0 ? null : `owner-${n % 3}`,
      fromChain: 'devnet-a',
      toChain: n % 2 === 0 ? 'devnet-a' : 'devnet-b',
      tokenIn: 'USDC',
      tokenOut: 'WETH',
      amountIn: `${10n ** 30n + BigInt(n)}`,
      slippageBps: n % 4 === 0 ? null : 50,
      recipient: null,
      request: { amount: String(n), note: 'a "quoted" \\ value' },
      providerOutcomes: [{ provider: 'uniswap-v2', outcome: 'ok' }],
      createdAtMs: 1_000 + n,
      expiresAtMs: 31_000 + n,
      routes: Array.from({ length: routes }, (_, rank) => ({
        routeId: `${id}:${rank}`,
        rank,
        summary: { expectedAmountOut: String(n * 10 + rank) },
        plan: { routeId: `${id}:${rank}`, legs: [] },
      })),
    };
  };

  const storedRoutes = async (quoteId: string) =>
    dataSource.query(
      `SELECT "route_id", "rank", "summary" FROM "${database.schema}"."quote_routes" WHERE "quote_id" = $1 ORDER BY "rank"`,
      [quoteId],
    );

  it('stores a burst of quotes in a few statements, each with its own terms and routes', async () => {
    // Quote 7 has no route (every provider failed): it is stored all the same.
    const burst = Array.from({ length: 2 * QUOTES_PER_INSERT + 30 }, (_, n) => quoteOf(n, n === 7 ? 0 : 2));

    await Promise.all(burst.map((quote) => quotes.insert(quote)));

    expect(inserts.count).toBeLessThanOrEqual(2 + 3);
    for (const n of [0, 1, 4, 7, burst.length - 1]) {
      const quote = burst[n];
      const [row] = await dataSource.query(
        `SELECT "owner", "to_chain", "amount_in", "slippage_bps", "request", "created_at_ms", "expires_at_ms"
           FROM "${database.schema}"."quotes" WHERE "id" = $1`,
        [quote.id],
      );
      expect(row).toEqual({
        owner: quote.owner,
        to_chain: quote.toChain,
        amount_in: quote.amountIn,
        slippage_bps: quote.slippageBps,
        request: quote.request,
        created_at_ms: String(quote.createdAtMs),
        expires_at_ms: String(quote.expiresAtMs),
      });
      expect(await storedRoutes(quote.id)).toEqual(
        quote.routes.map((route) => ({ route_id: route.routeId, rank: route.rank, summary: route.summary })),
      );
    }
  });

  it('fails the quotes of a statement that fails, and only them', async () => {
    const stored = quoteOf(1);
    await quotes.insert(stored);
    inserts.reset();
    // Two quotes take both statements in flight; the next two wait and go together, one of them
    // with an id already stored: their statement fails, the others are stored.
    const [first, second, again, fresh] = [
      quoteOf(2),
      quoteOf(3),
      { ...quoteOf(4), id: stored.id },
      quoteOf(5),
    ];
    const outcomes = await Promise.allSettled(
      [first, second, again, fresh].map((quote) => quotes.insert(quote)),
    );

    expect(outcomes.map((outcome) => outcome.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'rejected',
      'rejected',
    ]);
    expect(inserts.count).toBe(3);
    expect(await storedRoutes(first.id)).toHaveLength(2);
    expect(await storedRoutes(fresh.id)).toHaveLength(0);
  });
});
