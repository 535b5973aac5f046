import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { HDNodeWallet } from 'ethers';
import { Client } from 'pg';
import { api, ApiClient, ApiResponse, testEnv, waitFor } from '@swapgw/testing';
import { buildSwap, freshQuote } from './support/swap-steps';
import { OpenApiValidator } from './support/openapi-validator';
import { PrivateStack, startPrivateStack } from './support/private-stack';
import { Received, WebhookReceiver } from './support/webhook-receiver';

// Webhooks end to end: a local receiver (loopback http, the development flag the test stack sets)
// gets limit-order events of its owner, signed; a receiver answering 500 is retried until it
// answers; a gateway killed while a receiver holds the request delivers after its restart. A stack
// of its own (one gateway, short retry settings) because the test kills its gateway.

const RETRY_WINDOW_MS = 8000;

describe('webhooks: signed deliveries of swap and limit-order events, retried until answered', () => {
  let stack: PrivateStack;
  let alice: ApiClient;
  let bob: ApiClient;
  let openApi: OpenApiValidator;
  const receiver = new WebhookReceiver();
  let receiverUrl: string;

  beforeAll(async () => {
    receiverUrl = await receiver.start();
    stack = await startPrivateStack('webhooks', {
      appEnv: {
        gateway: {
          WEBHOOK_ALLOW_LOOPBACK_HTTP: 'true',
          // New deliveries wake the dispatcher through NOTIFY; the interval paces the retries below.
          WEBHOOK_DISPATCH_INTERVAL_MS: '1000',
          WEBHOOK_RETRY_BASE_DELAY_MS: '200',
          WEBHOOK_RETRY_MAX_DELAY_MS: '1000',
          WEBHOOK_RETRY_WINDOW_MS: String(RETRY_WINDOW_MS),
          WEBHOOK_DELIVERY_TIMEOUT_MS: '15000',
          // Short, so that a delivery claimed by the killed gateway is taken again soon after its restart.
          WEBHOOK_LEASE_MS: '4000',
        },
      },
    });
    const run = randomUUID().slice(0, 8);
    alice = api(stack.stack.gatewayUrl!, await stack.createApiKey(`webhooks-alice-${run}`));
    bob = api(stack.stack.gatewayUrl!, await stack.createApiKey(`webhooks-bob-${run}`));
    openApi = await OpenApiValidator.fetch(stack.stack.gatewayUrl!);
  }, 600_000);

  afterAll(async () => {
    await stack?.stop();
    await receiver.stop();
  }, 120_000);

  const documented = (method: string, path: string, res: ApiResponse): ApiResponse => {
    expect(openApi.check(method, path, res.status, res.body)).toEqual({ valid: true, problems: [] });
    return res;
  };
  const expectError = (res: ApiResponse, status: number, code: string) =>
    expect({ status: res.status, code: res.body?.error?.code }).toEqual({ status, code });

  const createWebhook = async (path: string, eventTypes?: string[]) => {
    const res = documented(
      'POST',
      '/api/v1/webhooks',
      await alice.post('/webhooks', { url: `${receiverUrl}${path}`, ...(eventTypes ? { eventTypes } : {}) }),
    );
    expect(res.status).toBe(201);
    return res.body.data as { id: string; secret: string; createdAtMs: number };
  };
  /** An open limit order of alice (far below the market: it stays open), whose creation is an event. */
  const createLimitOrder = async (): Promise<string> => {
    const res = await alice.post(
      '/limit-orders/limit',
      {
        fromChain: 'devnet-a',
        toChain: 'devnet-a',
        tokenIn: 'WETH',
        tokenOut: 'USDC',
        amount: '1.5',
        minAmountOut: '9000',
      },
      { idempotencyKey: `webhooks-${randomUUID()}` },
    );
    expect(res.status).toBe(200);
    return res.body.data.limitOrderId as string;
  };
  const deliveriesOf = async (webhookId: string) => {
    const res = documented(
      'GET',
      `/api/v1/webhooks/${webhookId}/deliveries`,
      await alice.get(`/webhooks/${webhookId}/deliveries`),
    );
    expect(res.status).toBe(200);
    return res.body.data.items as Array<{
      id: string;
      eventId: string;
      eventType: string;
      status: string;
      attempts: number;
      lastResponseStatus: number | null;
      createdAtMs: number;
    }>;
  };
  /** Verified by the standardwebhooks package, as an integrator's receiver would. */
  const expectSigned = (secret: string, received: Received) => {
    expect(WebhookReceiver.verify(secret, received)).toEqual(received.body);
    expect(received.headers['webhook-timestamp']).toMatch(/^\d+$/);
    expect(received.body.id).toBe(received.deliveryId);
    expect(received.body.eventId).toBe(received.eventId);
  };

  it('registers, lists (without the secret) and deletes webhooks; another owner gets 404; bad URLs and types are refused', async () => {
    const hook = await createWebhook('/crud', ['limit-order.created']);
    expect(hook).toEqual({
      id: expect.any(String),
      url: `${receiverUrl}/crud`,
      eventTypes: ['limit-order.created'],
      allEventTypes: false,
      createdAtMs: expect.any(Number),
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
    });
    const list = documented('GET', '/api/v1/webhooks', await alice.get('/webhooks'));
    expect(list.body.data.items).toContainEqual({
      id: hook.id,
      url: `${receiverUrl}/crud`,
      eventTypes: ['limit-order.created'],
      allEventTypes: false,
      createdAtMs: hook.createdAtMs,
    });
    expect(JSON.stringify(list.body)).not.toContain(hook.secret);

    expect((await bob.get('/webhooks')).body.data.items).toEqual([]);
    expectError(
      documented('DELETE', `/api/v1/webhooks/${hook.id}`, await bob.delete(`/webhooks/${hook.id}`)),
      404,
      'WEBHOOK_NOT_FOUND',
    );
    expectError(await bob.get(`/webhooks/${hook.id}/deliveries`), 404, 'WEBHOOK_NOT_FOUND');
    expectError(await alice.delete('/webhooks/not-a-uuid'), 404, 'WEBHOOK_NOT_FOUND');

    for (const url of [
      'http://hooks.example.com/x',
      'https://10.0.0.8/x',
      'https://169.254.169.254/latest/meta-data',
      'ftp://127.0.0.1/x',
      'not a url',
    ]) {
      expectError(
        documented('POST', '/api/v1/webhooks', await alice.post('/webhooks', { url })),
        400,
        'WEBHOOK_URL_REJECTED',
      );
    }
    expectError(
      await alice.post('/webhooks', { url: `${receiverUrl}/x`, eventTypes: ['swap.teleported'] }),
      400,
      'VALIDATION_FAILED',
    );

    const deleted = documented(
      'DELETE',
      `/api/v1/webhooks/${hook.id}`,
      await alice.delete(`/webhooks/${hook.id}`),
    );
    expect(deleted.body.data).toEqual({ id: hook.id, deleted: true });
    expectError(await alice.delete(`/webhooks/${hook.id}`), 404, 'WEBHOOK_NOT_FOUND');
  });

  it("delivers the owner's limit-order events, signed, with the delivery id in header and body and the source event id", async () => {
    const all = await createWebhook('/all');
    const createdOnly = await createWebhook('/created-only', ['limit-order.created']);
    const limitOrderId = await createLimitOrder();
    const cancel = await alice.delete(`/limit-orders/limit/${limitOrderId}`, {
      idempotencyKey: `webhooks-${randomUUID()}`,
    });
    expect(cancel.status).toBe(200);

    const types = await waitFor(
      async () => {
        const got = receiver
          .on('/all')
          .filter((r) => r.body.data.limitOrderId === limitOrderId)
          .map((r) => r.body.type);
        return got.includes('limit-order.canceled') && got.includes('limit-order.created') ? got : undefined;
      },
      { timeoutMs: 30_000, description: 'created and canceled delivered to /all' },
    );
    expect(types.sort()).toEqual(['limit-order.canceled', 'limit-order.created']);
    for (const received of receiver.on('/all')) expectSigned(all.secret, received);
    const created = receiver.on('/all').find((r) => r.body.type === 'limit-order.created')!;
    expect(created.body.data).toMatchObject({ limitOrderId, status: 'open', amount: '1.5' });
    expect(created.body.data).not.toHaveProperty('owner');
    // Signed with its own webhook's secret, not another's.
    expect(() => WebhookReceiver.verify(createdOnly.secret, created)).toThrow('No matching signature found');

    // The filtered webhook gets only the creation.
    await waitFor(async () => (receiver.on('/created-only').length > 0 ? true : undefined), {
      timeoutMs: 30_000,
      description: 'created delivered to /created-only',
    });
    expect(receiver.on('/created-only').map((r) => r.body.type)).toEqual(['limit-order.created']);
    expectSigned(createdOnly.secret, receiver.on('/created-only')[0]);

    const log = await waitFor(
      async () => {
        const items = await deliveriesOf(all.id);
        return items.length === 2 && items.every((d) => d.status === 'delivered') ? items : undefined;
      },
      { timeoutMs: 10_000, description: 'both deliveries logged as delivered' },
    );
    expect(log.map((d) => d.eventType).sort()).toEqual(['limit-order.canceled', 'limit-order.created']);
    const times = log.map((d) => d.createdAtMs);
    expect(times).toEqual([...times].sort((a, b) => b - a)); // newest first
    expect(log.every((d) => d.attempts === 1 && d.lastResponseStatus === 200)).toBe(true);
    expect(new Set(log.map((d) => d.id))).toEqual(new Set(receiver.on('/all').map((r) => r.deliveryId)));
  });

  it('signs for a webhook registered before Standard Webhooks (whsec_ + 64 hex) with that secret read as base64, as every library reads it', async () => {
    const hook = await createWebhook('/legacy', ['limit-order.created']);
    // The secret as the rows made before the switch hold it.
    const legacySecret = `whsec_${randomBytes(32).toString('hex')}`;
    const db = new Client({ connectionString: stack.databaseUrl });
    await db.connect();
    try {
      const updated = await db.query('UPDATE "gateway"."webhooks" SET "secret" = $1 WHERE "id" = $2', [
        legacySecret,
        hook.id,
      ]);
      expect(updated.rowCount).toBe(1);
    } finally {
      await db.end();
    }
    const limitOrderId = await createLimitOrder();
    const received = await waitFor(
      async () => receiver.on('/legacy').find((r) => r.body.data.limitOrderId === limitOrderId),
      { timeoutMs: 30_000, description: 'limit-order.created delivered to /legacy' },
    );
    expectSigned(legacySecret, received);
    expect(() => WebhookReceiver.verify(hook.secret, received)).toThrow('No matching signature found');
  });

  it("delivers the owner's swap events as the swap is built: created, then payload ready, signed, without the owner", async () => {
    const hook = await createWebhook('/swaps', ['swap.created', 'swap.payload-ready']);
    const manifest = JSON.parse(fs.readFileSync(testEnv().devnetManifest, 'utf8')) as { mnemonic: string };
    const userAddress = HDNodeWallet.fromPhrase(manifest.mnemonic, undefined, `m/44'/60'/0'/0/9`).address;
    const built = await buildSwap(alice, `webhooks-${randomUUID()}`, await freshQuote(alice), userAddress, 0);
    expect([200, 202]).toContain(built.status);
    const swapId = built.body.data.swapId as string;

    const types = await waitFor(
      async () => {
        const got = receiver
          .on('/swaps')
          .filter((r) => r.body.data.swapId === swapId)
          .map((r) => r.body.type);
        return got.includes('swap.created') && got.includes('swap.payload-ready') ? got : undefined;
      },
      { timeoutMs: 60_000, description: 'swap.created and swap.payload-ready delivered to /swaps' },
    );
    expect(types.sort()).toEqual(['swap.created', 'swap.payload-ready']);
    for (const received of receiver.on('/swaps')) expectSigned(hook.secret, received);
    const created = receiver.on('/swaps').find((r) => r.body.type === 'swap.created')!;
    expect(created.body.data).toMatchObject({ swapId, status: expect.any(String) });
    expect(String(created.body.data.userAddress).toLowerCase()).toBe(userAddress.toLowerCase());
    expect(created.body.data).not.toHaveProperty('owner');
    const ready = receiver.on('/swaps').find((r) => r.body.type === 'swap.payload-ready')!;
    expect(ready.body.data).toMatchObject({ swapId, status: 'awaiting_signature', step: { current: 1 } });
    expect(ready.body.data).not.toHaveProperty('payload');
  });

  it('retries a receiver answering 500 until it answers 2xx, with the same delivery id; never two ids for one event', async () => {
    receiver.answer = (path, n) => (path === '/flaky' && n <= 3 ? 500 : 200);
    const flaky = await createWebhook('/flaky', ['limit-order.created']);
    const limitOrderId = await createLimitOrder();

    await waitFor(async () => (receiver.on('/flaky').some((r) => r.answered === 200) ? true : undefined), {
      timeoutMs: 30_000,
      description: 'the flaky receiver answered 200 after three 500s',
    });
    const attempts = receiver.on('/flaky');
    expect(attempts.map((r) => r.answered)).toEqual([500, 500, 500, 200]);
    expect(new Set(attempts.map((r) => r.deliveryId)).size).toBe(1);
    for (const r of attempts) {
      expectSigned(flaky.secret, r);
      expect(r.body.data.limitOrderId).toBe(limitOrderId);
    }
    // The outcome is recorded just after the receiver answered.
    const delivery = await waitFor(
      async () => (await deliveriesOf(flaky.id)).find((d) => d.status === 'delivered'),
      {
        timeoutMs: 10_000,
        description: 'the flaky delivery logged as delivered',
      },
    );
    expect(delivery).toMatchObject({
      id: attempts[0].deliveryId,
      status: 'delivered',
      attempts: 4,
      lastResponseStatus: 200,
    });

    // Across everything received so far: one delivery id per (receiver path, event).
    const idsPerEvent = new Map<string, Set<string>>();
    for (const r of receiver.received)
      idsPerEvent.set(
        `${r.path} ${r.eventId}`,
        (idsPerEvent.get(`${r.path} ${r.eventId}`) ?? new Set()).add(r.deliveryId),
      );
    expect([...idsPerEvent.values()].every((ids) => ids.size === 1)).toBe(true);
  });

  it('marks a delivery dead after the retry window, and redelivers it on request', async () => {
    let down = true;
    receiver.answer = (path) => (path === '/down' && down ? 503 : 200);
    const hook = await createWebhook('/down', ['limit-order.created']);
    await createLimitOrder();
    const [dead] = await waitFor(
      async () => {
        const items = await deliveriesOf(hook.id);
        return items[0]?.status === 'dead' ? items : undefined;
      },
      { timeoutMs: RETRY_WINDOW_MS + 20_000, description: 'the delivery is dead after the retry window' },
    );
    expect(dead).toMatchObject({ status: 'dead', lastResponseStatus: 503 });
    expect(dead.attempts).toBeGreaterThan(2);

    down = false;
    const res = documented(
      'POST',
      `/api/v1/webhooks/${hook.id}/deliveries/${dead.id}/redeliver`,
      await alice.post(`/webhooks/${hook.id}/deliveries/${dead.id}/redeliver`),
    );
    expect(res.status).toBe(202);
    expect(res.body.data).toMatchObject({ id: dead.id, status: 'pending' });
    await waitFor(
      async () =>
        receiver.on('/down').some((r) => r.answered === 200 && r.deliveryId === dead.id) ? true : undefined,
      {
        timeoutMs: 15_000,
        description: 'the redelivery answered 200',
      },
    );
    expectError(
      await alice.post(`/webhooks/${hook.id}/deliveries/${randomUUID()}/redeliver`),
      404,
      'WEBHOOK_DELIVERY_NOT_FOUND',
    );
    expectError(
      await bob.post(`/webhooks/${hook.id}/deliveries/${dead.id}/redeliver`),
      404,
      'WEBHOOK_NOT_FOUND',
    );
  });

  it('still delivers when the gateway is killed while the receiver holds the request, once it is started again', async () => {
    let holding = true;
    receiver.answer = (path) => (path === '/crash' && holding ? 'hold' : 200);
    const hook = await createWebhook('/crash', ['limit-order.created']);
    const limitOrderId = await createLimitOrder();
    const held = await waitFor(async () => receiver.on('/crash')[0], {
      timeoutMs: 30_000,
      description: 'the receiver holds the first attempt',
    });

    const gateway = stack.stack.get('gateway')[0];
    await gateway.kill('SIGKILL');
    holding = false;
    await gateway.restart();

    const answered = await waitFor(async () => receiver.on('/crash').find((r) => r.answered === 200), {
      timeoutMs: 60_000,
      description: 'the delivery answered 200 after the restart',
    });
    expect(answered.deliveryId).toBe(held.deliveryId);
    expect(answered.body.data.limitOrderId).toBe(limitOrderId);
    expectSigned(hook.secret, answered);
    const delivery = await waitFor(
      async () => (await deliveriesOf(hook.id)).find((d) => d.status === 'delivered'),
      {
        timeoutMs: 10_000,
        description: 'the delivery logged as delivered after the restart',
      },
    );
    expect(delivery).toMatchObject({ id: held.deliveryId, status: 'delivered', lastResponseStatus: 200 });

    const metrics = await (await fetch(stack.stack.gatewayMetricsUrls[0])).text();
    expect(metrics).toMatch(/swapgw_webhook_delivery_attempts_total\{[^}]*outcome="delivered"[^}]*\} [1-9]/);
    expect(metrics).toContain('swapgw_webhook_delivery_latency_seconds_bucket');
  });
});
