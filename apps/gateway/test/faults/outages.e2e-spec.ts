import fs from 'node:fs';
import { randomBytes, randomUUID } from 'node:crypto';
import { HDNodeWallet, JsonRpcProvider } from 'ethers';
import { Client } from 'pg';
import { dropDatabase, ensureDatabase } from '@swapgw/persistence';
import {
  api,
  ApiClient,
  ApiResponse,
  createApiKey,
  FaultProxy,
  KafkaBroker,
  ledgerAnomalies,
  readSwapLedger,
  Stack,
  startKafkaBroker,
  startStack,
  testEnv,
  waitFor,
} from '@swapgw/testing';
import { swapIdOf } from '../../src/swap/swap-id';
import { buildSwap, freshQuote as freshQuoteOf, QuotedRoute, untilSigningReady } from '../support/swap-steps';
import {
  expectAcceptedOrUnavailable,
  privateDatabaseUrl,
  expectApiError,
  isReady,
  stackReady,
  untilAccepted,
} from './fault-support';

// Fault tests on a stack of their own, so the outages hurt nobody else's suite:
//   - a private Kafka broker (tools/kafka through libs/testing) that the test stops and starts; the
//     broker process itself goes away, so the listener it advertises needs no proxy trick;
//   - a fresh database reached by all five apps through a TCP proxy that the test makes refuse;
//   - the shared devnet of the test run.
// What a user checks: the status and ApiError body of each call during the outage, that accepted
// builds complete once the dependency is back, and the rows in the services' tables.
const env = testEnv();
const manifest = JSON.parse(fs.readFileSync(env.devnetManifest, 'utf8')) as {
  mnemonic: string;
  chains: Array<{ id: string; chainId: number; rpcUrl: string }>;
};
// Account 8: no other suite signs with it, so the nonce arithmetic below is ours alone.
const wallet = HDNodeWallet.fromPhrase(manifest.mnemonic, undefined, "m/44'/60'/0'/0/8");

describe('outages of Kafka and PostgreSQL, and a crashed signer, on a stack of their own', () => {
  const directDatabaseUrl = privateDatabaseUrl('faults', env.databaseUrl);
  let broker: KafkaBroker;
  let databaseProxy: FaultProxy;
  let stack: Stack;
  let client: ApiClient;
  let owner: string;

  beforeAll(async () => {
    await ensureDatabase(directDatabaseUrl);
    const direct = new URL(directDatabaseUrl);
    databaseProxy = await new FaultProxy({
      target: { host: direct.hostname, port: Number(direct.port || 5432) },
    }).start();
    const proxied = new URL(directDatabaseUrl);
    proxied.host = databaseProxy.address;
    broker = await startKafkaBroker();
    stack = await startStack({
      env: {
        KAFKA_BROKERS: broker.brokers,
        DATABASE_URL: proxied.toString(),
        // Keys resolved before an outage stay trusted, so a call during it reaches the handler.
        AUTH_CACHE_TTL_MS: '300000',
        // Quotes outlive the outages (a broker restart on a busy machine takes a while).
        QUOTE_TTL_MS: '600000',
      },
    });
    owner = `faults-${randomBytes(4).toString('hex')}`;
    client = api(
      stack.gatewayUrl!,
      await createApiKey(owner, { ...env.env, DATABASE_URL: directDatabaseUrl }),
    );
    expect((await client.get('/chains')).status).toBe(200);
  }, 600_000);

  afterAll(async () => {
    await stack?.stop();
    await Promise.allSettled([broker?.stop(), databaseProxy?.stop()]);
    await dropDatabase(directDatabaseUrl);
  }, 180_000);

  const freshQuote = (): Promise<QuotedRoute> => freshQuoteOf(client);
  const build = (key: string, quote: QuotedRoute, waitForTxRequestMs: number): Promise<ApiResponse> =>
    buildSwap(client, key, quote, wallet.address, waitForTxRequestMs);

  const LIMIT_ORDER = {
    fromChain: 'devnet-a',
    toChain: 'devnet-a',
    tokenIn: 'USDC',
    tokenOut: 'DAI',
    amount: '1',
    minAmountOut: '0.5',
  };

  /**
   * A limit order created once the stack has recovered, retried as a client retries a 503: a
   * service's request-reply client reconnects on its first request after an outage, and that first
   * request may still time out.
   */
  async function limitOrderAccepted(idempotencyKey: string): Promise<ApiResponse> {
    return waitFor(
      async () => {
        const res = await client.post('/limit-orders/limit', LIMIT_ORDER, { idempotencyKey });
        if (res.status === 503) return undefined;
        return res;
      },
      {
        timeoutMs: 120_000,
        intervalMs: 1000,
        description: `limit order ${idempotencyKey} answered without 503`,
      },
    );
  }

  const untilReady = (swapId: string): Promise<ApiResponse> => untilSigningReady(client, swapId);

  /** Reads straight from PostgreSQL, not through the proxy the apps use. */
  async function countRows(sql: string, params: unknown[]): Promise<number> {
    const db = new Client({ connectionString: directDatabaseUrl });
    await db.connect();
    try {
      return (await db.query<{ n: number }>(sql, params)).rows[0].n;
    } finally {
      await db.end();
    }
  }

  /**
   * Keeps the tests independent: an app that an earlier test left unready (that test failed for it)
   * is restarted, so the next test measures its own fault and not the previous one.
   */
  async function restartUnreadyApps(): Promise<void> {
    for (const handle of stack.handles) if (!(await isReady(handle.healthUrl))) await handle.restart();
  }

  it('PostgreSQL refusing: 503 ApiErrors and no half-written rows; the stack recovers by itself', async () => {
    await restartUnreadyApps();
    const quote = await freshQuote();
    const key = `postgres-outage-${randomUUID()}`;
    const swapId = swapIdOf(owner, key);
    const ordersBefore = await countRows(
      `SELECT count(*)::int AS n FROM limit_order.limit_orders WHERE owner = $1`,
      [owner],
    );
    databaseProxy.setRefusing(true);
    try {
      expectApiError(await build(key, quote, 5000), 503);
      expectApiError(await client.get('/limit-orders/limits'), 503);
      expectApiError(
        await client.post('/limit-orders/limit', LIMIT_ORDER, { idempotencyKey: `order-${key}` }),
        503,
      );
    } finally {
      databaseProxy.setRefusing(false);
    }
    await stackReady(stack);

    // Read directly, not through the proxy: nothing of the refused calls was written anywhere.
    expect(
      await countRows(
        `SELECT count(*)::int AS n FROM gateway.idempotency_records WHERE idempotency_key IN ($1, $2)`,
        [key, `order-${key}`],
      ),
    ).toBe(0);
    expect(
      await countRows(`SELECT count(*)::int AS n FROM gateway.swap_views WHERE swap_id = $1`, [swapId]),
    ).toBe(0);
    expect(await countRows(`SELECT count(*)::int AS n FROM planner.swaps WHERE id = $1`, [swapId])).toBe(0);
    expect(
      await countRows(`SELECT count(*)::int AS n FROM limit_order.limit_orders WHERE owner = $1`, [owner]),
    ).toBe(ordersBefore);

    // Recovery needs no restart: the same build, retried, is accepted and becomes ready once.
    const accepted = await untilAccepted(
      () => build(key, quote, 0),
      'build accepted after PostgreSQL returned',
    );
    expect(accepted.body.data.swapId).toBe(swapId);
    await untilReady(swapId);
    expect(ledgerAnomalies(await readSwapLedger(directDatabaseUrl, [swapId]))).toEqual([]);
    const order = await limitOrderAccepted(`order-${key}`);
    expect(order.status).toBe(200);
    expect(order.body.data.status).toBe('open');
    expect(
      await countRows(`SELECT count(*)::int AS n FROM limit_order.limit_orders WHERE owner = $1`, [owner]),
    ).toBe(ordersBefore + 1);
  }, 420_000);

  it('signer-surface SIGKILLed right after a step was broadcast: the swap completes after restart, each step sent once', async () => {
    await restartUnreadyApps();
    const chain = manifest.chains.find((c) => c.id === 'devnet-a')!;
    const provider = new JsonRpcProvider(chain.rpcUrl, chain.chainId, { staticNetwork: true });
    const signer = stack.get('signer-surface')[0];
    try {
      const quote = await freshQuote();
      const key = `signer-crash-${randomUUID()}`;
      const swapId = swapIdOf(owner, key);
      const nonceBefore = await provider.getTransactionCount(wallet.address);
      const built = await build(key, quote, 20_000);
      expect([200, 202]).toContain(built.status);
      const first = (await untilReady(swapId)).body.data;
      const total = first.signing.step.total as number;
      expect(first.signing.step.current).toBe(1);

      const submitted = await client.post(`/swap/${swapId}/signing`, {
        rawTx: await wallet.signTransaction(first.signing.payload.transaction),
      });
      expect(submitted.status).toBe(200);
      // The signer owns the confirmation of that transaction: it dies before it can report it.
      await signer.kill('SIGKILL');
      await signer.restart();

      for (let step = 2; step <= total; step++) {
        const ready = await waitFor(
          async () => {
            const res = await client.get(`/swap/${swapId}/signing`);
            return res.status === 200 && res.body.data.signing.step.current === step
              ? res.body.data
              : undefined;
          },
          {
            timeoutMs: 150_000,
            intervalMs: 500,
            description: `step ${step} of ${swapId} ready after the signer restart`,
          },
        );
        const sent = await client.post(`/swap/${swapId}/signing`, {
          rawTx: await wallet.signTransaction(ready.signing.payload.transaction),
        });
        expect(sent.status).toBe(200);
      }
      const terminal = await waitFor(
        async () => {
          const res = await client.get(`/swap/${swapId}/signing`);
          return res.status === 409 ? res.body.error : undefined;
        },
        { timeoutMs: 150_000, intervalMs: 500, description: `swap ${swapId} completed` },
      );
      expect(terminal).toMatchObject({ code: 'EXECUTION_TERMINAL', details: { status: 'completed' } });
      // Each step broadcast exactly once: the wallet's nonce moved by the number of steps.
      expect((await provider.getTransactionCount(wallet.address)) - nonceBefore).toBe(total);
      const db = new Client({ connectionString: directDatabaseUrl });
      await db.connect();
      try {
        const { rows } = await db.query(
          `SELECT step_index AS step, count(*)::int AS n, count(DISTINCT tx_hash)::int AS hashes FROM signer.signing_requests
           WHERE swap_id = $1 AND status = 'confirmed' GROUP BY step_index ORDER BY step_index`,
          [swapId],
        );
        expect(rows).toEqual(Array.from({ length: total }, (_, i) => ({ step: i + 1, n: 1, hashes: 1 })));
      } finally {
        await db.end();
      }
    } finally {
      provider.destroy();
    }
  }, 420_000);

  // Last: when a broker restart leaves a consumer crashed (see the report of this suite), the
  // tests above have already run on a healthy stack.
  it('Kafka stopped under in-flight builds: 503 ApiErrors while down, every build completes exactly once after', async () => {
    await restartUnreadyApps();
    const quotes = await Promise.all(Array.from({ length: 4 }, () => freshQuote()));
    const inFlightKeys = quotes.map((_, i) => `kafka-outage-inflight-${i}-${randomUUID()}`);
    // Builds that wait for their payload; the broker goes away while they are on the wire or waiting.
    const inFlight = Promise.all(inFlightKeys.map((key, i) => build(key, quotes[i], 20_000)));
    await broker.halt();

    const downKeys = [`kafka-outage-down-0-${randomUUID()}`, `kafka-outage-down-1-${randomUUID()}`];
    const duringOutage = await Promise.all(downKeys.map((key, i) => build(key, quotes[i], 5000)));
    for (const res of duringOutage) expectApiError(res, 503);
    // A limit order placed while the broker is away is refused with a 503 ApiError, not lost half-way.
    const orderKeyDuringOutage = `kafka-outage-order-down-${randomUUID()}`;
    expectApiError(
      await client.post('/limit-orders/limit', LIMIT_ORDER, { idempotencyKey: orderKeyDuringOutage }),
      503,
    );

    const first = await inFlight;
    // Accepted before the broker left (200 ready, 202 still building) or refused with a 503 ApiError.
    for (const res of first) expectAcceptedOrUnavailable(res);

    await broker.resume();
    await stackReady(stack);

    // The client retries every refused build with the same Idempotency-Key, as the spec advises.
    const allKeys = [...inFlightKeys, ...downKeys];
    const allQuotes = [...quotes, quotes[0], quotes[1]];
    const outcomes = [...first, ...duringOutage];
    for (const [i, key] of allKeys.entries()) {
      if (outcomes[i].status !== 503) continue;
      outcomes[i] = await untilAccepted(() => build(key, allQuotes[i], 0), `retry of build ${key} accepted`);
    }
    const swapIds = allKeys.map((key) => swapIdOf(owner, key));
    outcomes.forEach((res, i) => expect(res.body.data.swapId).toBe(swapIds[i]));
    for (const swapId of swapIds) {
      const ready = await untilReady(swapId);
      expect(ready.body.data.signing.step).toEqual({ current: 1, total: expect.any(Number) });
    }
    // None lost, none twice: one planner swap, one step-1 command, one ready payload per build.
    const ledger = await readSwapLedger(directDatabaseUrl, swapIds);
    expect(ledgerAnomalies(ledger)).toEqual([]);
    expect(ledger).toHaveLength(allKeys.length);
    // The rest of the stack is back too: gateway → limit-order-service → quote-service catalog.
    const order = await limitOrderAccepted(`kafka-outage-order-${randomUUID()}`);
    expect(order.status).toBe(200);
    expect(order.body.data.status).toBe('open');
    // The order refused during the outage, retried with its Idempotency-Key, exists exactly once.
    const retriedOrder = await limitOrderAccepted(orderKeyDuringOutage);
    expect(retriedOrder.status).toBe(200);
    const replayed = await client.post('/limit-orders/limit', LIMIT_ORDER, {
      idempotencyKey: orderKeyDuringOutage,
    });
    expect(replayed.body.data.limitOrderId).toBe(retriedOrder.body.data.limitOrderId);
    const listed = await client.get('/limit-orders/limits?limit=200');
    const ids = (listed.body.data.limitOrders as { limitOrderId: string }[]).map((o) => o.limitOrderId);
    expect(ids.filter((id) => id === retriedOrder.body.data.limitOrderId)).toHaveLength(1);
  }, 600_000);
});
