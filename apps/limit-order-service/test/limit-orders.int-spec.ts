import { randomUUID } from 'node:crypto';
import { Consumer, Kafka, logLevel } from 'kafkajs';
import { DataSource } from 'typeorm';
import {
  CodedError,
  CreateLimitOrderRequest,
  LimitOrderEventTypes,
  MessageEnvelope,
  RoutePlan,
  SwapBuildRequest,
  SwapCommandTypes,
  Topics,
} from '@swapgw/contracts';
import { ensureTopics, KafkaSettings, Outbox, OutboxRelay } from '@swapgw/messaging';
import { prepareDatabase, serviceDataSourceOptions } from '@swapgw/persistence';
import type { TermsChain } from '@swapgw/chains';
import { testEnv, waitFor } from '@swapgw/testing';
import { limitOrderDatabaseOptions } from '../src/database/limit-order-database';
import { IdempotencyRepository } from '../src/idempotency/idempotency.repository';
import { FillQuote } from '../src/orders/fill-search';
import { CatalogDirectory, MarketQuoter, QuoteTerms, TokenInfo } from '../src/upstream/upstream.ports';
import { OutboxSwapBuildCommands } from '../src/upstream/outbox-swap-build-commands';
import { LimitOrderServiceConfig } from '../src/config/limit-order-service.config';
import { LimitOrderHistory } from '../src/orders/limit-order-history';
import { LimitOrderEntity } from '../src/orders/limit-order.entity';
import { LimitOrderRepository } from '../src/orders/limit-order.repository';
import { Clock, SystemClock } from '@swapgw/runtime';
import { LimitOrdersService } from '../src/orders/limit-orders.service';
import { ExpirySweeper } from '../src/automatic-transitions/expiry-sweeper';
import { TriggerWatcher } from '../src/automatic-transitions/trigger-watcher';

/**
 * limit-order-service's order logic against the real PostgreSQL (real migrations) and the real
 * Kafka broker (outbox relay → limit-order.events). Only the other services it calls over Kafka
 * (catalog decimals, quotes, swap build) stand in as typed doubles here; the request-reply path
 * itself is covered by the e2e tests through the gateway.
 */
const env = testEnv();
const TOKENS: Record<string, number> = { USDC: 6, DAI: 18, WETH: 18, ETH: 18 };
const MAX_FAILED_CHECKS = 3;

/** The devnet's two EVM chains (testnets) and a few tokens, as quote-service's catalog lists them. */
class StaticCatalog extends CatalogDirectory {
  async chain(id: string): Promise<TermsChain | undefined> {
    return ['devnet-a', 'devnet-b'].includes(id) ? { id, family: 'evm', network: 'testnet' } : undefined;
  }

  async token(chain: string, symbol: string): Promise<TokenInfo | undefined> {
    const decimals = TOKENS[symbol];
    return decimals === undefined ? undefined : { chain, symbol, decimals };
  }
}

/**
 * A constant-product WETH/USDC pool whose price the test can move. Orders whose tokenIn is in
 * `refused` are answered as quote-service answers a delisted token (400 UNKNOWN_TOKEN); those in
 * `unavailable` as a quote-service that does not answer in time (503 SERVICE_UNAVAILABLE).
 */
class PoolQuoter extends MarketQuoter {
  reserveIn = 1000n * 10n ** 18n;
  reserveOut = 3_000_000n * 10n ** 6n;
  calls = 0;
  readonly refused = new Set<string>();
  readonly unavailable = new Set<string>();
  async quote(terms: QuoteTerms, amountIn: bigint): Promise<FillQuote> {
    if (this.refused.has(terms.tokenIn)) {
      throw new CodedError(
        'UNKNOWN_TOKEN',
        `tokenIn ${terms.tokenIn} is not a known token on ${terms.fromChain}`,
      );
    }
    if (this.unavailable.has(terms.tokenIn))
      throw new CodedError('SERVICE_UNAVAILABLE', 'quote.create timed out');
    this.calls += 1;
    const withFee = amountIn * 997n;
    const amountOut = (this.reserveOut * withFee) / (this.reserveIn * 1000n + withFee);
    const quoteId = `q-${this.calls}`;
    // The builder below only records it: the plan is opaque to the order logic.
    return { amountIn, amountOut, quoteId, routeId: 'r-0', plan: { quoteId, routeId: 'r-0' } as RoutePlan };
  }
}

describe('limit-order-service against PostgreSQL and Kafka', () => {
  const dbOptions = limitOrderDatabaseOptions(env.databaseUrl, 20);
  const settings: KafkaSettings = {
    brokers: env.brokers,
    clientId: 'limit-order-int',
    instanceId: `int-${process.pid}`,
  };
  let dataSource: DataSource;
  let relay: OutboxRelay;
  let consumer: Consumer;
  const seen: MessageEnvelope<Record<string, unknown>>[] = [];
  let quoter: PoolQuoter;
  /** The swap.build commands the orders of this run sent on swap.commands, through the outbox. */
  const swapBuilds: SwapBuildRequest[] = [];
  let service: LimitOrdersService;
  let sweeper: ExpirySweeper;
  let watcher: TriggerWatcher;
  const clock: Clock = new SystemClock();
  const run = randomUUID().slice(0, 8);
  const alice = `alice-${run}`;
  const bob = `bob-${run}`;

  beforeAll(async () => {
    await prepareDatabase(dbOptions);
    dataSource = await new DataSource(serviceDataSourceOptions(dbOptions)).initialize();
    await ensureTopics(settings);
    relay = new OutboxRelay(dataSource, settings);
    await relay.start();

    consumer = new Kafka({
      brokers: env.brokers,
      clientId: 'limit-order-int',
      logLevel: logLevel.NOTHING,
    }).consumer({
      groupId: `limit-order-int-${run}`,
    });
    await consumer.connect();
    await consumer.subscribe({
      topics: [Topics.limitOrderEvents, Topics.swapCommands],
      fromBeginning: false,
    });
    await consumer.run({
      eachMessage: async ({ topic, message }) => {
        const envelope = JSON.parse(message.value?.toString() ?? '{}');
        if (!String(envelope.payload?.owner ?? '').endsWith(run)) return;
        if (topic === Topics.swapCommands && envelope.type === SwapCommandTypes.build)
          swapBuilds.push(envelope.payload);
        else if (topic === Topics.limitOrderEvents) seen.push(envelope);
      },
    });
    await waitFor(async () => (await consumer.describeGroup()).state === 'Stable', {
      timeoutMs: 30_000,
      description: 'test consumer to join its group',
    });

    const history = new LimitOrderHistory(new Outbox(clock));
    quoter = new PoolQuoter();
    const swaps = new OutboxSwapBuildCommands(new Outbox(clock));
    const orders = new LimitOrderRepository(dataSource);
    service = new LimitOrdersService(
      orders,
      history,
      new IdempotencyRepository(),
      new StaticCatalog(),
      quoter,
      swaps,
      Object.assign(new LimitOrderServiceConfig(), { IOC_MAX_QUOTES: 10 }),
      clock,
    );
    sweeper = new ExpirySweeper(orders, history, clock);
    watcher = new TriggerWatcher(
      orders,
      history,
      quoter,
      swaps,
      Object.assign(new LimitOrderServiceConfig(), {
        WATCH_INTERVAL_MS: 0,
        WATCH_BATCH_SIZE: 500,
        WATCH_MAX_FAILED_CHECKS: MAX_FAILED_CHECKS,
      }),
      clock,
    );
  }, 120_000);

  afterAll(async () => {
    await consumer?.disconnect();
    await relay?.stop();
    await dataSource?.destroy();
  });

  const order = (overrides: Partial<CreateLimitOrderRequest> = {}): CreateLimitOrderRequest => ({
    owner: alice,
    idempotencyKey: `k-${randomUUID()}`,
    fromChain: 'devnet-a',
    toChain: 'devnet-a',
    tokenIn: 'WETH',
    tokenOut: 'USDC',
    amount: '1.5',
    minAmountOut: '6000',
    ...overrides,
  });

  const codeOf = async (promise: Promise<unknown>): Promise<string> => {
    try {
      await promise;
      return 'no error';
    } catch (error) {
      return error instanceof CodedError ? error.code : `unexpected: ${String(error)}`;
    }
  };

  const rowsOf = (id: string) =>
    dataSource.query(`SELECT status, version FROM limit_order.limit_orders WHERE id = $1`, [id]) as Promise<
      Array<{ status: string; version: number }>
    >;

  it('creates a GTC order, reads it back, lists it, and publishes limit-order.created', async () => {
    const before = Date.now();
    const created = await service.create(order());
    expect(created.status).toBe('open');
    expect(created.minAmountOut).toBe('6000');
    expect(created.expiresAtMs).toBeGreaterThanOrEqual(before + 90 * 24 * 3600 * 1000);

    const view = await service.get({ owner: alice, limitOrderId: created.limitOrderId });
    expect(view).toMatchObject({
      limitOrderId: created.limitOrderId,
      status: 'open',
      timeInForce: 'GTC',
      amount: '1.5',
    });
    expect(view.createdAtMs).toBe(view.updatedAtMs);

    const list = await service.list({ owner: alice });
    expect(list.limitOrders.map((o) => o.limitOrderId)).toContain(created.limitOrderId);

    const event = await waitFor(
      () =>
        seen.find((e) => e.aggregateId === created.limitOrderId && e.type === LimitOrderEventTypes.created),
      { timeoutMs: 20_000, description: 'limit-order.created on limit-order.events' },
    );
    expect(event.payload).toMatchObject({ limitOrderId: created.limitOrderId, status: 'open', version: 1 });
    const [history] = await dataSource.query(
      `SELECT count(*)::int AS n FROM limit_order.limit_order_events WHERE limit_order_id = $1 AND event_id = $2`,
      [created.limitOrderId, event.eventId],
    );
    expect(history.n).toBe(1);
  });

  it('rejects amounts beyond the token decimals and inconsistent expiries', async () => {
    expect(await codeOf(service.create(order({ amount: '1.0000000000000000001' })))).toBe('INVALID_AMOUNT');
    expect(await codeOf(service.create(order({ minAmountOut: '1.0000001' })))).toBe('INVALID_AMOUNT');
    expect(await codeOf(service.create(order({ timeInForce: 'GTD' })))).toBe('INVALID_EXPIRY');
    expect(
      await codeOf(service.create(order({ expiresAtMs: Date.now() + 60_000, expireAfterMs: 1000 }))),
    ).toBe('INVALID_EXPIRY');
    expect(await codeOf(service.create(order({ timeInForce: 'GTD', expiresAtMs: Date.now() - 1 })))).toBe(
      'INVALID_EXPIRY',
    );
    expect(await codeOf(service.create(order({ tokenOut: 'NOPE' })))).toBe('UNKNOWN_TOKEN');
  });

  it('keeps owners apart: another owner gets FORBIDDEN, unknown ids NOT_FOUND, lists never mix', async () => {
    const mine = await service.create(order());
    expect(await codeOf(service.get({ owner: bob, limitOrderId: mine.limitOrderId }))).toBe('FORBIDDEN');
    expect(
      await codeOf(service.cancel({ owner: bob, idempotencyKey: 'x1', limitOrderId: mine.limitOrderId })),
    ).toBe('FORBIDDEN');
    expect(await codeOf(service.replace({ ...order({ owner: bob }), limitOrderId: mine.limitOrderId }))).toBe(
      'FORBIDDEN',
    );
    expect(await codeOf(service.get({ owner: alice, limitOrderId: 'lo_missing' }))).toBe(
      'LIMIT_ORDER_NOT_FOUND',
    );
    expect((await service.list({ owner: bob })).limitOrders).toEqual([]);
    expect((await rowsOf(mine.limitOrderId))[0].status).toBe('open');
  });

  it('replays the same key, rejects the key with another request, and 10 concurrent duplicates make one order', async () => {
    const request = order({ owner: `dup-${run}` });
    const results = await Promise.all(Array.from({ length: 10 }, () => service.create({ ...request })));
    expect(new Set(results.map((r) => r.limitOrderId)).size).toBe(1);
    const [{ n }] = await dataSource.query(
      `SELECT count(*)::int AS n FROM limit_order.limit_orders WHERE owner = $1`,
      [request.owner],
    );
    expect(n).toBe(1);
    expect(await service.create({ ...request })).toEqual(results[0]);
    expect(await codeOf(service.create({ ...request, amount: '2' }))).toBe('IDEMPOTENCY_CONFLICT');
    // The same key is another owner's own key: no conflict, no replay of alice's order.
    const other = await service.create({ ...request, owner: `dup2-${run}` });
    expect(other.limitOrderId).not.toBe(results[0].limitOrderId);
  });

  it('cancels once; retries replay; a canceled order cannot be replaced', async () => {
    const created = await service.create(order());
    const cancel = {
      owner: alice,
      idempotencyKey: `c-${run}`,
      limitOrderId: created.limitOrderId,
      reason: 'changed my mind',
    };
    const [a, b] = await Promise.all([service.cancel(cancel), service.cancel(cancel)]);
    expect(a).toEqual({ limitOrderId: created.limitOrderId, status: 'canceled' });
    expect(b).toEqual(a);
    expect(await service.cancel({ ...cancel, idempotencyKey: `c2-${run}`, reason: undefined })).toEqual(a);
    const view = await service.get({ owner: alice, limitOrderId: created.limitOrderId });
    expect(view).toMatchObject({ status: 'canceled', cancelReason: 'changed my mind' });
    expect((await rowsOf(created.limitOrderId))[0].version).toBe(2);
    expect(await codeOf(service.replace({ ...order(), limitOrderId: created.limitOrderId }))).toBe(
      'LIMIT_ORDER_NOT_REPLACEABLE',
    );
  });

  it('replaces atomically: one new open order, the old one canceled, and racing replaces yield one winner', async () => {
    const original = await service.create(order());
    const attempts = await Promise.allSettled(
      Array.from({ length: 5 }, (_, i) =>
        service.replace({ ...order({ minAmountOut: `${6100 + i}` }), limitOrderId: original.limitOrderId }),
      ),
    );
    const won = attempts.filter((a) => a.status === 'fulfilled');
    expect(won).toHaveLength(1);
    for (const lost of attempts.filter((a) => a.status === 'rejected')) {
      expect(((lost as PromiseRejectedResult).reason as CodedError).code).toBe('LIMIT_ORDER_NOT_REPLACEABLE');
    }
    const replacement = (won[0] as PromiseFulfilledResult<Awaited<ReturnType<LimitOrdersService['replace']>>>)
      .value;
    expect(replacement.replacesLimitOrderId).toBe(original.limitOrderId);
    expect(replacement.status).toBe('open');

    const old = await service.get({ owner: alice, limitOrderId: original.limitOrderId });
    expect(old).toMatchObject({ status: 'canceled', replacedByLimitOrderId: replacement.limitOrderId });
    const fresh = await service.get({ owner: alice, limitOrderId: replacement.limitOrderId });
    expect(fresh).toMatchObject({ status: 'open', replacesLimitOrderId: original.limitOrderId });
    // Only one replacement row exists for the original.
    const [{ n }] = await dataSource.query(
      `SELECT count(*)::int AS n FROM limit_order.limit_orders WHERE replaces_id = $1`,
      [original.limitOrderId],
    );
    expect(n).toBe(1);
    await waitFor(
      () =>
        seen.some(
          (e) => e.aggregateId === original.limitOrderId && e.type === LimitOrderEventTypes.replaced,
        ) &&
        seen.some(
          (e) => e.aggregateId === replacement.limitOrderId && e.type === LimitOrderEventTypes.created,
        ),
      { timeoutMs: 20_000, description: 'replaced + created events' },
    );
  });

  it('a failing replace leaves both orders as they were (rollback)', async () => {
    const original = await service.create(order());
    expect(
      await codeOf(service.replace({ ...order({ tokenOut: 'NOPE' }), limitOrderId: original.limitOrderId })),
    ).toBe('UNKNOWN_TOKEN');
    expect((await rowsOf(original.limitOrderId))[0]).toEqual({ status: 'open', version: 1 });
  });

  it('the sweeper expires a GTD order on time and publishes limit-order.expired', async () => {
    const created = await service.create(order({ expireAfterMs: 300 }));
    expect(created.status).toBe('open');
    await waitFor(
      async () => {
        await sweeper.sweep();
        return (await rowsOf(created.limitOrderId))[0].status === 'expired';
      },
      { timeoutMs: 10_000, description: 'GTD order to expire' },
    );
    expect(
      (await service.list({ owner: alice, status: 'expired' })).limitOrders.map((o) => o.limitOrderId),
    ).toContain(created.limitOrderId);
    await waitFor(
      () =>
        seen.find((e) => e.aggregateId === created.limitOrderId && e.type === LimitOrderEventTypes.expired),
      {
        timeoutMs: 20_000,
        description: 'limit-order.expired event',
      },
    );
    expect(
      await codeOf(
        service.cancel({ owner: alice, idempotencyKey: `x-${run}`, limitOrderId: created.limitOrderId }),
      ),
    ).toBe('LIMIT_ORDER_NOT_REPLACEABLE');
  });

  it('FOK expires when the whole amount misses the limit; IOC triggers the part that meets it', async () => {
    const recipient = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
    // 100 WETH at ≥ 2900 USDC each: the pool (3000 spot, 1000 WETH deep) cannot do it all.
    const fok = await service.create(
      order({ timeInForce: 'FOK', amount: '100', minAmountOut: '290000', recipient }),
    );
    expect(fok.status).toBe('expired');
    expect(
      await codeOf(service.create(order({ timeInForce: 'IOC', amount: '100', minAmountOut: '290000' }))),
    ).toBe('VALIDATION_FAILED');

    const ioc = await service.create(
      order({ timeInForce: 'IOC', amount: '100', minAmountOut: '290000', recipient }),
    );
    expect(ioc.status).toBe('triggered');
    const view = await service.get({ owner: alice, limitOrderId: ioc.limitOrderId });
    const filled = Number(view.filledAmount);
    expect(filled).toBeGreaterThan(30);
    expect(filled).toBeLessThan(32); // the pool's boundary for 2900/WETH is ≈ 31.4 WETH
    // The swap's build went out as a durable command with the trigger, for the recipient to sign.
    const build = await waitFor(async () => swapBuilds.find((command) => command.swapId === view.swapId), {
      timeoutMs: 15_000,
      description: "the IOC order's swap.build command on swap.commands",
    });
    expect(build).toMatchObject({ owner: alice, userAddress: recipient, recipient });
  });

  it('the watcher triggers an open order once the price moves past its limit', async () => {
    const recipient = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';
    const created = await service.create(
      order({ owner: `watch-${run}`, amount: '1', minAmountOut: '3100', recipient }),
    );
    await watcher.watch();
    expect((await rowsOf(created.limitOrderId))[0].status).toBe('open');

    // Someone buys WETH: the pool now pays ~3300 USDC per WETH.
    quoter.reserveIn = 950n * 10n ** 18n;
    quoter.reserveOut = 3_150_000n * 10n ** 6n;
    const triggered = await watcher.watch();
    expect(triggered).toContain(created.limitOrderId);
    const view = await service.get({ owner: `watch-${run}`, limitOrderId: created.limitOrderId });
    expect(view).toMatchObject({ status: 'triggered', filledAmount: '1' });
    expect(view.swapId).toMatch(/^[0-9a-f-]{36}$/);
    const row = await dataSource.manager.findOneByOrFail(LimitOrderEntity, { id: created.limitOrderId });
    expect(row.version).toBe(2);
    const build = await waitFor(async () => swapBuilds.find((command) => command.swapId === view.swapId), {
      timeoutMs: 15_000,
      description: "the triggered order's swap.build command on swap.commands",
    });
    expect(build).toMatchObject({ owner: `watch-${run}`, userAddress: recipient, recipient });
    expect(build.acceptedAtMs).toBeGreaterThan(0);
  });

  /**
   * An open order as an operator's data holds it after a delisting: inserted directly in the
   * service's table, with a tokenIn the quoter refuses (or cannot reach quote-service for).
   */
  async function insertOpenOrder(owner: string, tokenIn: string): Promise<string> {
    const id = `lo_${randomUUID().replace(/-/g, '').slice(0, 26)}`;
    const now = Date.now();
    await dataSource.query(
      `INSERT INTO limit_order.limit_orders
         (id, owner, status, time_in_force, from_chain, to_chain, token_in, token_out, token_in_decimals, token_out_decimals,
          amount, amount_base, min_amount_out, min_amount_out_base, expires_at_ms, created_at_ms, updated_at_ms, next_check_at_ms, version)
       VALUES ($1, $2, 'open', 'GTC', 'devnet-a', 'devnet-a', $3, 'USDC', 18, 6, '1', 1000000000000000000, '1000000', 1000000000000, $4, $5, $5, 0, 1)`,
      [id, owner, tokenIn, now + 3_600_000, now],
    );
    return id;
  }

  const failureRowOf = async (id: string) =>
    (
      (await dataSource.query(
        `SELECT status, version, failed_checks AS "failedChecks", failure_code AS "failureCode" FROM limit_order.limit_orders WHERE id = $1`,
        [id],
      )) as Array<{ status: string; version: number; failedChecks: number; failureCode: string | null }>
    )[0];

  it('the watcher fails an order it can no longer check after WATCH_MAX_FAILED_CHECKS refusals, once, with its event', async () => {
    const owner = `delist-${run}`;
    quoter.refused.add('DELISTED');
    quoter.unavailable.add('FLAKY');
    const delisted = await insertOpenOrder(owner, 'DELISTED');
    const flaky = await insertOpenOrder(owner, 'FLAKY');

    for (let round = 1; round < MAX_FAILED_CHECKS; round++) await watcher.watch();
    expect(await failureRowOf(delisted)).toEqual({
      status: 'open',
      version: 1,
      failedChecks: MAX_FAILED_CHECKS - 1,
      failureCode: null,
    });

    await watcher.watch();
    const view = await service.get({ owner, limitOrderId: delisted });
    expect(view).toMatchObject({
      status: 'failed',
      failureCode: 'UNKNOWN_TOKEN',
      failureMessage: 'tokenIn DELISTED is not a known token on devnet-a',
    });
    const failedList = await service.list({ owner, status: 'failed' });
    expect(failedList.limitOrders.map((o) => o.limitOrderId)).toEqual([delisted]);

    // More rounds change nothing: the order left `open` once.
    await watcher.watch();
    await watcher.watch();
    expect(await failureRowOf(delisted)).toEqual({
      status: 'failed',
      version: 2,
      failedChecks: MAX_FAILED_CHECKS,
      failureCode: 'UNKNOWN_TOKEN',
    });
    const history: Array<{ type: string }> = await dataSource.query(
      `SELECT type FROM limit_order.limit_order_events WHERE limit_order_id = $1 ORDER BY id`,
      [delisted],
    );
    expect(history.map((h) => h.type)).toEqual([LimitOrderEventTypes.failed]);
    const event = await waitFor(
      () => seen.find((e) => e.aggregateId === delisted && e.type === LimitOrderEventTypes.failed),
      { timeoutMs: 20_000, description: 'limit-order.failed on limit-order.events' },
    );
    expect(event.payload).toMatchObject({
      limitOrderId: delisted,
      status: 'failed',
      version: 2,
      failureCode: 'UNKNOWN_TOKEN',
    });

    // Quote-service not answering says nothing about the order: it stays open, uncounted.
    expect(await failureRowOf(flaky)).toEqual({
      status: 'open',
      version: 1,
      failedChecks: 0,
      failureCode: null,
    });
    expect(await codeOf(service.cancel({ owner, idempotencyKey: `c-${run}`, limitOrderId: delisted }))).toBe(
      'LIMIT_ORDER_NOT_REPLACEABLE',
    );
  });

  it('a check that quotes again resets the count of refused checks', async () => {
    const owner = `relist-${run}`;
    quoter.refused.add('WBTC');
    const relisted = await insertOpenOrder(owner, 'WBTC');
    await watcher.watch();
    expect((await failureRowOf(relisted)).failedChecks).toBe(1);

    quoter.refused.delete('WBTC');
    await watcher.watch();
    expect(await failureRowOf(relisted)).toMatchObject({ failedChecks: 0, failureCode: null });
  });
});
