import { randomUUID } from 'node:crypto';
import { api, ApiClient, waitFor } from '@swapgw/testing';
import { IdempotentResponseRepository, requestFingerprint } from '../src/idempotency';
import { probeState, ProbeModule } from './support/probe.module';
import { dropTestDatabase, startTestGateway, TestGateway, testDatabaseUrl } from './support/test-gateway';

describe('Idempotency-Key semantics (through a test-only @Idempotent controller)', () => {
  const databaseUrl = testDatabaseUrl('idem');
  let gateway: TestGateway;
  let alice: ApiClient;
  let bob: ApiClient;

  beforeAll(async () => {
    gateway = await startTestGateway({ databaseUrl, extraModules: [ProbeModule] });
    alice = api(gateway.baseUrl, await gateway.createKey('alice'));
    bob = api(gateway.baseUrl, await gateway.createKey('bob'));
  });

  afterAll(async () => {
    try {
      probeState.gate.open();
      await gateway?.close();
    } finally {
      await dropTestDatabase(databaseUrl);
    }
  });

  const recordCount = async (key: string): Promise<number> => {
    const rows: Array<{ n: string }> = await gateway.dataSource.query(
      `SELECT count(*) AS n FROM "gateway"."idempotency_records" WHERE "idempotency_key" = $1`,
      [key],
    );
    return Number(rows[0].n);
  };

  it('requires the header where the route says so, and validates its format', async () => {
    const missing = await alice.post('/test-probe/orders', { amount: '1' });
    expect(missing.status).toBe(400);
    expect(missing.body.error.code).toBe('IDEMPOTENCY_KEY_REQUIRED');

    for (const bad of ['x'.repeat(201), 'has space', 'slash/inside', 'semi;colon', 'a,b']) {
      const res = await alice.post(
        '/test-probe/orders',
        { amount: '1' },
        { headers: { 'idempotency-key': bad } },
      );
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('IDEMPOTENCY_KEY_INVALID');
    }
    const longest = await alice.post(
      '/test-probe/orders',
      { amount: '1' },
      { idempotencyKey: 'k'.repeat(200) },
    );
    expect(longest.status).toBe(200);
  });

  it('replays the stored response for the same key and request, with Idempotent-Replayed', async () => {
    const key = randomUUID();
    const first = await alice.post(
      '/test-probe/orders',
      { amount: '1.25' },
      { idempotencyKey: key, headers: { 'x-request-id': 'first-call' } },
    );
    expect(first.status).toBe(200);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(first.body.data).toEqual({
      execution: expect.any(Number),
      owner: 'alice',
      idempotencyKey: key,
      amount: '1.25',
    });

    const executionsBefore = probeState.executions;
    // Same request with the keys in another order: same canonical fingerprint.
    const again = await alice.post(
      '/test-probe/orders',
      { amount: '1.25' },
      { idempotencyKey: key, headers: { 'x-request-id': 'second-call' } },
    );
    expect(again.status).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body.data).toEqual(first.body.data);
    expect(again.body.meta.requestId).toBe('second-call');
    expect(probeState.executions).toBe(executionsBefore);
  });

  it('answers 409 IDEMPOTENCY_CONFLICT when the key is reused with a different request', async () => {
    const key = randomUUID();
    expect((await alice.post('/test-probe/orders', { amount: '1' }, { idempotencyKey: key })).status).toBe(
      200,
    );
    const other = await alice.post('/test-probe/orders', { amount: '2' }, { idempotencyKey: key });
    expect(other.status).toBe(409);
    expect(other.body.error.code).toBe('IDEMPOTENCY_CONFLICT');
  });

  it('scopes keys by owner: another owner with the same key runs its own request', async () => {
    const key = randomUUID();
    const a = await alice.post('/test-probe/orders', { amount: '3' }, { idempotencyKey: key });
    const b = await bob.post('/test-probe/orders', { amount: '3' }, { idempotencyKey: key });
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(b.headers['idempotent-replayed']).toBeUndefined();
    expect(b.body.data.owner).toBe('bob');
    expect(b.body.data.execution).not.toBe(a.body.data.execution);
  });

  it('scopes keys by route and path parameters (fingerprint includes them)', async () => {
    const key = randomUUID();
    const one = await alice.post('/test-probe/orders/o-1/replace', { amount: '1' }, { idempotencyKey: key });
    expect(one.status).toBe(202);
    const sameReplay = await alice.post(
      '/test-probe/orders/o-1/replace',
      { amount: '1' },
      { idempotencyKey: key },
    );
    expect(sameReplay.status).toBe(202);
    expect(sameReplay.headers['idempotent-replayed']).toBe('true');
    const otherOrder = await alice.post(
      '/test-probe/orders/o-2/replace',
      { amount: '1' },
      { idempotencyKey: key },
    );
    expect(otherOrder.status).toBe(409);
    expect(otherOrder.body.error.code).toBe('IDEMPOTENCY_CONFLICT');
    const otherRoute = await alice.post('/test-probe/orders', { amount: '1' }, { idempotencyKey: key });
    expect(otherRoute.status).toBe(200);
    expect(otherRoute.headers['idempotent-replayed']).toBeUndefined();
  });

  it('generates a key when optional and missing, returns it, and the handler sees it', async () => {
    const res = await alice.post('/test-probe/orders/o-3/replace', { amount: '1' });
    expect(res.status).toBe(202);
    const generated = res.headers['idempotency-key'];
    expect(generated).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.body.data.idempotencyKey).toBe(generated);
    const retry = await alice.post(
      '/test-probe/orders/o-3/replace',
      { amount: '1' },
      { idempotencyKey: generated },
    );
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.body.data).toEqual(res.body.data);
  });

  it('stores 4xx outcomes (replayed) and releases 5xx outcomes (a retry runs again)', async () => {
    const clientKey = randomUUID();
    const refused = await alice.post(
      '/test-probe/orders',
      { amount: '1', behaviour: 'client' },
      { idempotencyKey: clientKey },
    );
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe('INVALID_AMOUNT');
    const executions = probeState.executions;
    const refusedAgain = await alice.post(
      '/test-probe/orders',
      { amount: '1', behaviour: 'client' },
      { idempotencyKey: clientKey },
    );
    expect(refusedAgain.status).toBe(400);
    expect(refusedAgain.body.error).toEqual(refused.body.error);
    expect(refusedAgain.headers['idempotent-replayed']).toBe('true');
    expect(probeState.executions).toBe(executions);

    const serverKey = randomUUID();
    const failed = await alice.post(
      '/test-probe/orders',
      { amount: '1', behaviour: 'server' },
      { idempotencyKey: serverKey },
    );
    expect(failed.status).toBe(503);
    expect(await recordCount(serverKey)).toBe(0);
    const retried = await alice.post(
      '/test-probe/orders',
      { amount: '1', behaviour: 'server' },
      { idempotencyKey: serverKey },
    );
    expect(retried.status).toBe(503);
    expect(retried.headers['idempotent-replayed']).toBeUndefined();
    expect(probeState.executions).toBe(executions + 2);
  });

  it('does not keep a validation failure: the corrected request runs under the same key', async () => {
    const key = randomUUID();
    const invalid = await alice.post('/test-probe/orders', { amount: '1e3' }, { idempotencyKey: key });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.code).toBe('VALIDATION_FAILED');
    const corrected = await alice.post('/test-probe/orders', { amount: '1000' }, { idempotencyKey: key });
    expect(corrected.status).toBe(200);
    expect(corrected.body.data.amount).toBe('1000');
  });

  it('runs exactly one of 10 concurrent duplicates; the others get 409 IDEMPOTENCY_IN_PROGRESS, then replays', async () => {
    const key = randomUUID();
    probeState.gate.reset();
    probeState.held = 0;
    const executionsBefore = probeState.executions;
    const body = { amount: '7.5', behaviour: 'hold' };
    const inFlight = Array.from({ length: 10 }, () =>
      alice.post('/test-probe/orders', body, { idempotencyKey: key }),
    );
    const statuses: number[] = new Array(10).fill(0);
    inFlight.forEach((request, i) => void request.then((res) => (statuses[i] = res.status)));

    // The one execution holds at the gate, so every other request must be answered while it waits.
    await waitFor(() => probeState.held === 1, {
      timeoutMs: 15_000,
      description: 'one probe execution to start',
    });
    await waitFor(() => statuses.filter((s) => s === 409).length === 9, {
      timeoutMs: 15_000,
      description: 'nine 409 answers while the first request is held',
    });
    expect(statuses.filter((s) => s === 0)).toHaveLength(1);
    probeState.gate.open();

    const responses = await Promise.all(inFlight);
    const winners = responses.filter((r) => r.status === 200);
    expect(winners).toHaveLength(1);
    for (const loser of responses.filter((r) => r.status === 409)) {
      expect(loser.body.error.code).toBe('IDEMPOTENCY_IN_PROGRESS');
    }
    expect(probeState.executions).toBe(executionsBefore + 1);

    const replay = await alice.post('/test-probe/orders', body, { idempotencyKey: key });
    expect(replay.status).toBe(200);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body.data).toEqual(winners[0].body.data);
    expect(probeState.executions).toBe(executionsBefore + 1);
  });

  it('takes over a claim abandoned by a crashed instance once its lease ended, for the same request only', async () => {
    const key = randomUUID();
    const body = { amount: '4' };
    // What a gateway that died mid-request leaves behind: an in-progress claim whose lease is over.
    await gateway.dataSource.query(
      `INSERT INTO "gateway"."idempotency_records"
         ("owner", "route_key", "idempotency_key", "request_fingerprint", "status", "locked_until", "expires_at")
       VALUES ('alice', 'POST /api/v1/test-probe/orders', $1, $2, 'in_progress', now() - interval '1 second', now() + interval '1 day')`,
      [key, requestFingerprint(body, {})],
    );
    const other = await alice.post('/test-probe/orders', { amount: '5' }, { idempotencyKey: key });
    expect(other.status).toBe(409);
    expect(other.body.error.code).toBe('IDEMPOTENCY_CONFLICT');
    const retried = await alice.post('/test-probe/orders', body, { idempotencyKey: key });
    expect(retried.status).toBe(200);
    expect(retried.body.data.amount).toBe('4');
  });

  it('keeps records at least 24 h and purges expired ones', async () => {
    const key = randomUUID();
    await alice.post('/test-probe/orders', { amount: '1' }, { idempotencyKey: key });
    const [row]: Array<{ ttl_hours: number }> = await gateway.dataSource.query(
      `SELECT extract(epoch FROM ("expires_at" - "created_at")) / 3600 AS ttl_hours FROM "gateway"."idempotency_records" WHERE "idempotency_key" = $1`,
      [key],
    );
    expect(Number(row.ttl_hours)).toBeGreaterThanOrEqual(24);

    await gateway.dataSource.query(
      `UPDATE "gateway"."idempotency_records" SET "expires_at" = now() - interval '1 second' WHERE "idempotency_key" = $1`,
      [key],
    );
    await gateway.app.get(IdempotentResponseRepository).purgeExpired();
    expect(await recordCount(key)).toBe(0);
  });
});
