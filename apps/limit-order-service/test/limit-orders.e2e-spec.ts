import { randomUUID } from 'node:crypto';
import { Kafka, logLevel } from 'kafkajs';
import { Client } from 'pg';
import { LimitOrderEventTypes, Topics } from '@swapgw/contracts';
import {
  api,
  ApiClient,
  createApiKey,
  e2eGatewayPair,
  e2eGatewayUrl,
  testEnv,
  waitFor,
} from '@swapgw/testing';

/**
 * The five limit-order endpoints through real HTTP: gateway → limit-order.requests →
 * limit-order-service → PostgreSQL, with token decimals from quote-service's catalog (devnet
 * manifest). The stack is started by the e2e global setup (GATEWAY_URL).
 */
const gatewayUrl = e2eGatewayUrl();

describe('limit orders over HTTP', () => {
  const run = randomUUID().slice(0, 8);
  let alice: ApiClient;
  let bob: ApiClient;
  let anonymous: ApiClient;

  beforeAll(async () => {
    alice = api(gatewayUrl, await createApiKey(`lo-alice-${run}`));
    bob = api(gatewayUrl, await createApiKey(`lo-bob-${run}`));
    anonymous = api(gatewayUrl);
  });

  const terms = (overrides: Record<string, unknown> = {}) => ({
    fromChain: 'devnet-a',
    toChain: 'devnet-a',
    tokenIn: 'WETH',
    tokenOut: 'USDC',
    amount: '1.5',
    minAmountOut: '9000',
    ...overrides,
  });
  const key = () => `e2e-${randomUUID()}`;

  const expectError = (res: { status: number; body: any }, status: number, code: string) => {
    expect({ status: res.status, code: res.body?.error?.code }).toEqual({ status, code });
    expect(res.body.meta.requestId).toEqual(expect.any(String));
  };

  it('POST /limit-orders/limit creates an open GTC order (200) and replays it for the same key', async () => {
    const idempotencyKey = key();
    const before = Date.now();
    const res = await alice.post('/limit-orders/limit', terms(), { idempotencyKey });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      limitOrderId: expect.stringMatching(/^lo_/),
      status: 'open',
      expiresAtMs: expect.any(Number),
      minAmountOut: '9000',
    });
    expect(res.body.data.expiresAtMs).toBeGreaterThanOrEqual(before + 90 * 24 * 3600 * 1000);

    const again = await alice.post('/limit-orders/limit', terms(), { idempotencyKey });
    expect(again.status).toBe(200);
    expect(again.body.data.limitOrderId).toBe(res.body.data.limitOrderId);

    const list = await alice.get('/limit-orders/limits');
    expect(
      list.body.data.limitOrders.filter((o: any) => o.limitOrderId === res.body.data.limitOrderId),
    ).toHaveLength(1);
  });

  it('POST /limit-orders/limit answers 400 for a missing key, bad amounts, bad expiry and unknown tokens', async () => {
    expectError(await alice.post('/limit-orders/limit', terms()), 400, 'IDEMPOTENCY_KEY_REQUIRED');
    expectError(
      await alice.post('/limit-orders/limit', terms({ amount: '-1' }), { idempotencyKey: key() }),
      400,
      'VALIDATION_FAILED',
    );
    expectError(
      await alice.post(
        '/limit-orders/limit',
        terms({ amount: '1.1234567', tokenIn: 'USDC', tokenOut: 'WETH', minAmountOut: '0.001' }),
        { idempotencyKey: key() },
      ),
      400,
      'INVALID_AMOUNT',
    );
    expectError(
      await alice.post(
        '/limit-orders/limit',
        terms({ expiresAtMs: Date.now() + 60_000, expireAfterMs: 1000 }),
        { idempotencyKey: key() },
      ),
      400,
      'INVALID_EXPIRY',
    );
    expectError(
      await alice.post('/limit-orders/limit', terms({ timeInForce: 'GTD' }), { idempotencyKey: key() }),
      400,
      'INVALID_EXPIRY',
    );
    expectError(
      await alice.post('/limit-orders/limit', terms({ timeInForce: 'GTD', expiresAtMs: 1000 }), {
        idempotencyKey: key(),
      }),
      400,
      'INVALID_EXPIRY',
    );
    expectError(
      await alice.post('/limit-orders/limit', terms({ tokenOut: 'NOPE' }), { idempotencyKey: key() }),
      400,
      'UNKNOWN_TOKEN',
    );
  });

  it('every endpoint answers 401 without an API key', async () => {
    expectError(
      await anonymous.post('/limit-orders/limit', terms(), { idempotencyKey: key() }),
      401,
      'UNAUTHORIZED',
    );
    expectError(await anonymous.get('/limit-orders/limit/lo_x'), 401, 'UNAUTHORIZED');
    expectError(
      await anonymous.delete('/limit-orders/limit/lo_x', { idempotencyKey: key() }),
      401,
      'UNAUTHORIZED',
    );
    expectError(
      await anonymous.post('/limit-orders/limit/lo_x/replace', terms(), { idempotencyKey: key() }),
      401,
      'UNAUTHORIZED',
    );
    expectError(await anonymous.get('/limit-orders/limits'), 401, 'UNAUTHORIZED');
  });

  it('GET /limit-orders/limit/{id}: 200 for the owner, 403 for another owner, 404 when unknown', async () => {
    const created = await alice.post('/limit-orders/limit', terms({ expireAfterMs: 3_600_000 }), {
      idempotencyKey: key(),
    });
    const id = created.body.data.limitOrderId;
    const mine = await alice.get(`/limit-orders/limit/${id}`);
    expect(mine.status).toBe(200);
    expect(mine.body.data).toMatchObject({
      limitOrderId: id,
      status: 'open',
      timeInForce: 'GTD',
      minAmountOut: '9000',
      amount: '1.5',
      fromChain: 'devnet-a',
      tokenIn: 'WETH',
      tokenOut: 'USDC',
    });
    for (const field of ['createdAtMs', 'updatedAtMs', 'expiresAtMs'])
      expect(mine.body.data[field]).toEqual(expect.any(Number));
    expectError(await bob.get(`/limit-orders/limit/${id}`), 403, 'FORBIDDEN');
    expectError(await alice.get('/limit-orders/limit/lo_does_not_exist'), 404, 'LIMIT_ORDER_NOT_FOUND');
    const bobs = await bob.get('/limit-orders/limits');
    expect(bobs.status).toBe(200);
    expect(bobs.body.data.limitOrders).toEqual([]);
  });

  it('DELETE /limit-orders/limit/{id}: 400 without key, 403, 404, then 200 canceled with the reason kept', async () => {
    const created = await alice.post('/limit-orders/limit', terms(), { idempotencyKey: key() });
    const id = created.body.data.limitOrderId;
    expectError(await alice.delete(`/limit-orders/limit/${id}`), 400, 'IDEMPOTENCY_KEY_REQUIRED');
    expectError(await bob.delete(`/limit-orders/limit/${id}`, { idempotencyKey: key() }), 403, 'FORBIDDEN');
    expectError(
      await alice.delete('/limit-orders/limit/lo_does_not_exist', { idempotencyKey: key() }),
      404,
      'LIMIT_ORDER_NOT_FOUND',
    );

    const cancelKey = key();
    const canceled = await alice.delete(`/limit-orders/limit/${id}`, {
      idempotencyKey: cancelKey,
      body: { reason: 'price moved' },
    });
    expect(canceled.status).toBe(200);
    expect(canceled.body.data).toEqual({ limitOrderId: id, status: 'canceled' });
    const retry = await alice.delete(`/limit-orders/limit/${id}`, {
      idempotencyKey: cancelKey,
      body: { reason: 'price moved' },
    });
    expect(retry.status).toBe(200);
    expect(retry.body.data).toEqual({ limitOrderId: id, status: 'canceled' });

    const read = await alice.get(`/limit-orders/limit/${id}`);
    expect(read.body.data).toMatchObject({ status: 'canceled', cancelReason: 'price moved' });
    expect(read.body.data.updatedAtMs).toBeGreaterThanOrEqual(read.body.data.createdAtMs);
    // Without a body as well.
    const other = await alice.post('/limit-orders/limit', terms(), { idempotencyKey: key() });
    const bare = await alice.delete(`/limit-orders/limit/${other.body.data.limitOrderId}`, {
      idempotencyKey: key(),
    });
    expect(bare.status).toBe(200);
    expect(bare.body.data.status).toBe('canceled');
  });

  it('POST /limit-orders/limit/{id}/replace: 200 atomically, then 409 for the canceled order; 400, 403, 404', async () => {
    const created = await alice.post('/limit-orders/limit', terms(), { idempotencyKey: key() });
    const id = created.body.data.limitOrderId;
    expectError(
      await alice.post(`/limit-orders/limit/${id}/replace`, terms()),
      400,
      'IDEMPOTENCY_KEY_REQUIRED',
    );
    expectError(
      await alice.post(`/limit-orders/limit/${id}/replace`, terms({ amount: 'x' }), {
        idempotencyKey: key(),
      }),
      400,
      'VALIDATION_FAILED',
    );
    expectError(
      await bob.post(`/limit-orders/limit/${id}/replace`, terms(), { idempotencyKey: key() }),
      403,
      'FORBIDDEN',
    );
    expectError(
      await alice.post('/limit-orders/limit/lo_does_not_exist/replace', terms(), { idempotencyKey: key() }),
      404,
      'LIMIT_ORDER_NOT_FOUND',
    );

    const replaceKey = key();
    const replaced = await alice.post(`/limit-orders/limit/${id}/replace`, terms({ minAmountOut: '9100' }), {
      idempotencyKey: replaceKey,
    });
    expect(replaced.status).toBe(200);
    expect(replaced.body.data).toEqual({
      limitOrderId: expect.stringMatching(/^lo_/),
      status: 'open',
      expiresAtMs: expect.any(Number),
      minAmountOut: '9100',
      replacesLimitOrderId: id,
    });
    expect(replaced.body.data.limitOrderId).not.toBe(id);
    expect((await alice.get(`/limit-orders/limit/${id}`)).body.data.status).toBe('canceled');
    expect((await alice.get(`/limit-orders/limit/${replaced.body.data.limitOrderId}`)).body.data.status).toBe(
      'open',
    );

    expectError(
      await alice.post(`/limit-orders/limit/${id}/replace`, terms(), { idempotencyKey: key() }),
      409,
      'LIMIT_ORDER_NOT_REPLACEABLE',
    );
    expectError(
      await alice.post(`/limit-orders/limit/${id}/replace`, terms({ minAmountOut: '9200' }), {
        idempotencyKey: replaceKey,
      }),
      409,
      'IDEMPOTENCY_CONFLICT',
    );
  });

  it('GET /limit-orders/limits: newest first, status filter, limit bounds', async () => {
    const owner = api(gatewayUrl, await createApiKey(`lo-list-${run}`));
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      ids.push(
        (await owner.post('/limit-orders/limit', terms(), { idempotencyKey: key() })).body.data.limitOrderId,
      );
    }
    await owner.delete(`/limit-orders/limit/${ids[0]}`, { idempotencyKey: key() });

    const all = await owner.get('/limit-orders/limits');
    expect(all.status).toBe(200);
    expect(all.body.data.limitOrders.map((o: any) => o.limitOrderId)).toEqual([...ids].reverse());
    const open = await owner.get('/limit-orders/limits', { query: { status: 'open' } });
    expect(open.body.data.limitOrders.map((o: any) => o.limitOrderId)).toEqual([ids[2], ids[1]]);
    const one = await owner.get('/limit-orders/limits', { query: { limit: 1 } });
    expect(one.body.data.limitOrders.map((o: any) => o.limitOrderId)).toEqual([ids[2]]);
    expectError(await owner.get('/limit-orders/limits', { query: { limit: 0 } }), 400, 'VALIDATION_FAILED');
    expectError(await owner.get('/limit-orders/limits', { query: { limit: 201 } }), 400, 'VALIDATION_FAILED');
    expectError(
      await owner.get('/limit-orders/limits', { query: { status: 'filled' } }),
      400,
      'VALIDATION_FAILED',
    );
  });

  it('two gateway instances serve the same orders: a retry on the other instance replays, reads agree', async () => {
    // Two instances or a failure: with one, the test would only prove one instance agrees with itself.
    const [first, second] = e2eGatewayPair();
    const apiKey = await createApiKey(`lo-two-${run}`);
    const a = api(first, apiKey);
    const b = api(second, apiKey);
    const idempotencyKey = key();
    const created = await a.post('/limit-orders/limit', terms(), { idempotencyKey });
    const retried = await b.post('/limit-orders/limit', terms(), { idempotencyKey });
    expect(retried.status).toBe(200);
    expect(retried.body.data.limitOrderId).toBe(created.body.data.limitOrderId);
    expect((await b.get(`/limit-orders/limit/${created.body.data.limitOrderId}`)).body.data.status).toBe(
      'open',
    );
    expect((await b.get('/limit-orders/limits')).body.data.limitOrders).toHaveLength(1);
  });

  it('a GTD order with a short expireAfterMs expires on its own', async () => {
    const created = await alice.post('/limit-orders/limit', terms({ expireAfterMs: 500 }), {
      idempotencyKey: key(),
    });
    expect(created.body.data.status).toBe('open');
    const expired = await waitFor(
      async () => {
        const res = await alice.get(`/limit-orders/limit/${created.body.data.limitOrderId}`);
        return res.body.data.status === 'expired' ? res.body.data : undefined;
      },
      { timeoutMs: 15_000, intervalMs: 200, description: 'the GTD order to expire' },
    );
    expect(expired.updatedAtMs).toBeGreaterThanOrEqual(expired.expiresAtMs);
  });

  describe('terms checked as POST /quote checks them', () => {
    /** What the order shares with a quote: the fields POST /quote takes. */
    const quoteTermsOf = (order: Record<string, unknown>) => {
      const { fromChain, toChain, tokenIn, tokenOut, amount, network } = order;
      return { fromChain, toChain, tokenIn, tokenOut, amount, ...(network ? { network } : {}) };
    };
    const refusalOf = (res: { status: number; body: any }) => ({
      status: res.status,
      code: res.body?.error?.code,
      message: res.body?.error?.message,
    });

    it.each([
      ['mainnet network on a devnet chain', 'UNKNOWN_CHAIN', { network: 'mainnet' }],
      ['an unknown token', 'UNKNOWN_TOKEN', { tokenIn: 'NOPE' }],
      [
        'more decimals than the token has',
        'INVALID_AMOUNT',
        { tokenIn: 'USDC', tokenOut: 'WETH', amount: '1.1234567', minAmountOut: '0.001' },
      ],
    ])(
      '%s: create and replace answer the 400 %s of POST /quote, same message',
      async (_case, code, overrides) => {
        const order = terms(overrides);
        const quote = refusalOf(await alice.post('/quote', quoteTermsOf(order)));
        expect(quote).toEqual({ status: 400, code, message: expect.any(String) });

        expect(refusalOf(await alice.post('/limit-orders/limit', order, { idempotencyKey: key() }))).toEqual(
          quote,
        );

        const open = await alice.post('/limit-orders/limit', terms(), { idempotencyKey: key() });
        const id = open.body.data.limitOrderId;
        expect(
          refusalOf(await alice.post(`/limit-orders/limit/${id}/replace`, order, { idempotencyKey: key() })),
        ).toEqual(quote);
        // The refused replacement changed nothing.
        expect((await alice.get(`/limit-orders/limit/${id}`)).body.data).toMatchObject({
          status: 'open',
          replacedByLimitOrderId: null,
        });
      },
    );

    it('the quote DTO limits apply to the same fields: a zero amount or a malformed recipient is VALIDATION_FAILED', async () => {
      for (const overrides of [
        { amount: '0' },
        { recipient: 'not-an-address' },
        { tokenIn: 'X'.repeat(65) },
      ]) {
        const order = terms(overrides);
        expectError(
          await alice.post('/quote', {
            ...quoteTermsOf(order),
            ...('recipient' in overrides ? overrides : {}),
          }),
          400,
          'VALIDATION_FAILED',
        );
        expectError(
          await alice.post('/limit-orders/limit', order, { idempotencyKey: key() }),
          400,
          'VALIDATION_FAILED',
        );
      }
    });
  });

  it('an open order the watcher can no longer check (its token delisted) fails once, with its reason and event', async () => {
    const env = testEnv();
    const owner = `lo-delisted-${run}`;
    const client = api(gatewayUrl, await createApiKey(owner));
    const id = `lo_${randomUUID().replace(/-/g, '').slice(0, 26)}`;
    const now = Date.now();
    // The row as an operator's data holds it after a delisting: a token the catalog no longer lists.
    const db = new Client({ connectionString: env.databaseUrl });
    await db.connect();
    try {
      await db.query(
        `INSERT INTO limit_order.limit_orders
           (id, owner, status, time_in_force, from_chain, to_chain, token_in, token_out, token_in_decimals, token_out_decimals,
            amount, amount_base, min_amount_out, min_amount_out_base, expires_at_ms, created_at_ms, updated_at_ms, next_check_at_ms, version)
         VALUES ($1, $2, 'open', 'GTC', 'devnet-a', 'devnet-a', 'DELISTED', 'USDC', 18, 6, '1', 1000000000000000000, '3000', 3000000000, $3, $4, $4, 0, 1)`,
        [id, owner, now + 3_600_000, now],
      );
      expect((await client.get(`/limit-orders/limit/${id}`)).body.data.status).toBe('open');

      const failed = await waitFor(
        async () => {
          const res = await client.get(`/limit-orders/limit/${id}`);
          return res.body.data.status === 'failed' ? res.body.data : undefined;
        },
        { timeoutMs: 120_000, intervalMs: 500, description: `limit order ${id} to fail` },
      );
      expect(failed).toMatchObject({
        status: 'failed',
        failureCode: 'UNKNOWN_TOKEN',
        failureMessage: 'tokenIn DELISTED is not a known token on devnet-a',
      });
      const listed = await client.get('/limit-orders/limits', { query: { status: 'failed' } });
      expect(listed.body.data.limitOrders.map((o: any) => [o.limitOrderId, o.failureCode])).toEqual([
        [id, 'UNKNOWN_TOKEN'],
      ]);
      expectError(
        await client.delete(`/limit-orders/limit/${id}`, { idempotencyKey: key() }),
        409,
        'LIMIT_ORDER_NOT_REPLACEABLE',
      );

      // After the bound (WATCH_MAX_FAILED_CHECKS, 5 by default), and only once.
      const [row] = (
        await db.query(`SELECT failed_checks, version FROM limit_order.limit_orders WHERE id = $1`, [id])
      ).rows;
      expect(row).toEqual({ failed_checks: 5, version: 2 });
      const history = await db.query(
        `SELECT type FROM limit_order.limit_order_events WHERE limit_order_id = $1`,
        [id],
      );
      expect(history.rows).toEqual([{ type: LimitOrderEventTypes.failed }]);
    } finally {
      await db.end();
    }

    // The event on limit-order.events, like the other transitions.
    const consumer = new Kafka({
      brokers: env.brokers,
      clientId: 'lo-failed-e2e',
      logLevel: logLevel.NOTHING,
    }).consumer({
      groupId: `lo-failed-e2e-${run}`,
    });
    const events: any[] = [];
    await consumer.connect();
    try {
      await consumer.subscribe({ topic: Topics.limitOrderEvents, fromBeginning: true });
      await consumer.run({
        eachMessage: async ({ message }) => {
          const envelope = JSON.parse(message.value?.toString() ?? '{}');
          if (envelope.aggregateId === id) events.push(envelope);
        },
      });
      const event = await waitFor(() => events.find((e) => e.type === LimitOrderEventTypes.failed), {
        timeoutMs: 60_000,
        description: 'limit-order.failed on limit-order.events',
      });
      expect(event.payload).toMatchObject({
        limitOrderId: id,
        owner,
        status: 'failed',
        version: 2,
        failureCode: 'UNKNOWN_TOKEN',
      });
      expect(events.filter((e) => e.type === LimitOrderEventTypes.failed)).toHaveLength(1);
    } finally {
      await consumer.disconnect();
    }
  });
});
