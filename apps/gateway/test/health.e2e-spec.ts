import {
  api,
  ApiClient,
  ApiResponse,
  FaultProxy,
  startKafkaBrokerBehindProxy,
  waitFor,
} from '@swapgw/testing';
import { gatewayDatabaseOptions } from '../src/database/gateway-data-source';
import { prepareDatabase } from '@swapgw/persistence';
import { ProbeModule } from './support/probe.module';
import { dropTestDatabase, startTestGateway, TestGateway, testDatabaseUrl } from './support/test-gateway';

/** The four Kafka services of the shared e2e stack, heard from their heartbeats (through the Kafka proxy). */
const SERVICES_UP = {
  'quote-service': 'up',
  'execution-planner': 'up',
  'signer-surface': 'up',
  'limit-order-service': 'up',
};

/**
 * The gateway reaches PostgreSQL and Kafka through TCP proxies that the test can make refuse
 * connections: "the database URL points nowhere" without touching the shared servers. Services
 * going down and coming back: service-liveness.e2e-spec.ts (a stack of its own).
 */
describe('GET /health and dependency outages', () => {
  const databaseUrl = testDatabaseUrl('health');
  let databaseProxy: FaultProxy;
  let gateway: TestGateway;
  let anonymous: ApiClient;
  let client: ApiClient;

  beforeAll(async () => {
    const db = new URL(databaseUrl);
    databaseProxy = await new FaultProxy({
      target: { host: db.hostname, port: Number(db.port || 5432) },
    }).start();
    const proxiedDb = new URL(databaseUrl);
    proxiedDb.host = databaseProxy.address;
    // The database itself is created and migrated directly; the running gateway uses the proxy.
    await prepareDatabase(gatewayDatabaseOptions(databaseUrl));
    gateway = await startTestGateway({
      databaseUrl: proxiedDb.toString(),
      extraModules: [ProbeModule],
      prepare: false,
      // Generous check bound: the test asserts which dependency is down, not how fast a busy CI answers.
      env: {
        AUTH_CACHE_TTL_MS: '300000',
        HEALTH_CHECK_TIMEOUT_MS: '10000',
      },
    });
    anonymous = api(gateway.baseUrl);
    client = api(gateway.baseUrl, await gateway.createKey('health-owner'));
  });

  afterAll(async () => {
    try {
      await gateway?.close();
      await databaseProxy?.stop();
    } finally {
      await dropTestDatabase(databaseUrl);
    }
  });

  it('answers 200 with status, uptime and checks when PostgreSQL, Kafka and the services answer', async () => {
    // Services are `unknown` until their first heartbeat reaches this fresh instance (every 5 s),
    // and a service not heard from yet is not ready: those answers are 503 degraded, never ok.
    const answers: ApiResponse[] = [];
    const res = await waitFor(
      async () => {
        const health = await anonymous.get('/health');
        answers.push(health);
        return health.status === 200 ? health : undefined;
      },
      { timeoutMs: 30_000, intervalMs: 250, description: 'health 200 with every service heard from' },
    );
    for (const answer of answers.filter((a) =>
      Object.values(a.body.data.checks.services).includes('unknown'),
    )) {
      expect(answer.status).toBe(503);
      expect(answer.body.data.status).toBe('degraded');
    }
    expect(res.body.data).toEqual({
      status: 'ok',
      uptimeSeconds: expect.any(Number),
      checks: { database: 'up', kafka: 'up', services: SERVICES_UP },
    });
    expect(res.body.meta.requestId).toBe(res.headers['x-request-id']);
    // The same view on /metrics, for the SwapgwServiceDown alert (deploy/monitoring).
    const metrics = await (await fetch(gateway.metricsUrl)).text();
    for (const target of Object.keys(SERVICES_UP))
      expect(metrics).toMatch(new RegExp(`^swapgw_kafka_service_up\\{target="${target}"[^}]*\\} 1$`, 'm'));
    // Warm the key cache so the outage below is seen by the handler, not by authentication.
    expect((await client.get('/test-probe/database')).status).toBe(200);
  });

  it('answers 503 with the same body shape when PostgreSQL is unreachable, and recovers', async () => {
    databaseProxy.setRefusing(true);
    try {
      await expectDatabaseOutage();
    } finally {
      databaseProxy.setRefusing(false);
    }
    await waitFor(async () => (await anonymous.get('/health')).status === 200, {
      timeoutMs: 20_000,
      description: 'health back to 200 after PostgreSQL returns',
    });
    expect((await client.get('/test-probe/database')).status).toBe(200);
  });

  async function expectDatabaseOutage(): Promise<void> {
    const down = await anonymous.get('/health');
    expect(down.status).toBe(503);
    expect(down.body.data).toEqual({
      status: 'degraded',
      uptimeSeconds: expect.any(Number),
      checks: { database: 'down', kafka: 'up', services: SERVICES_UP },
    });

    const query = await client.get('/test-probe/database');
    expect(query.status).toBe(503);
    expect(query.body.error.code).toBe('PERSISTENCE_UNAVAILABLE');
    // Rate limiting carries on with per-instance counters while the database is away.
    expect(query.headers['ratelimit-limit']).toBe('600');
  }

  it('with scope=instance reports the same checks; an unknown scope is 400', async () => {
    const res = await anonymous.get('/health?scope=instance');
    expect(res.status).toBe(200);
    expect(res.body.data.checks).toEqual({ database: 'up', kafka: 'up', services: SERVICES_UP });
    const bad = await anonymous.get('/health?scope=everything');
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('VALIDATION_FAILED');
  });

  it('answers 503 with kafka down while the cluster is away, asks it on one connection, and recovers', async () => {
    // A cluster of its own behind a proxy that every connection goes through (the broker advertises
    // the proxy): refusing there is the whole cluster gone, as for a real outage.
    const proxied = await startKafkaBrokerBehindProxy();
    let outageGateway: TestGateway | undefined;
    try {
      outageGateway = await startTestGateway({
        databaseUrl,
        env: { KAFKA_BROKERS: proxied.broker.brokers, HEALTH_CHECK_TIMEOUT_MS: '3000' },
      });
      const instance = api(outageGateway.baseUrl);
      const kafkaCheck = async () => (await instance.get('/health?scope=instance')).body.data.checks.kafka;
      await waitFor(async () => (await kafkaCheck()) === 'up' || undefined, {
        timeoutMs: 60_000,
        description: 'kafka up on the private cluster',
      });

      // GET /health is public: calls reuse the probe's connection instead of opening one each.
      // Counted once the gateway's consumers have joined their groups (their coordinator and
      // partition leaders' connections open while they join, whatever the health checks do).
      let settled = -1;
      await waitFor(
        async () => {
          const now = proxied.proxy.stats().accepted;
          const still = now === settled;
          settled = now;
          return still || undefined;
        },
        { timeoutMs: 60_000, intervalMs: 3_000, description: 'no new connection to the cluster for 3 s' },
      );
      const accepted = proxied.proxy.stats().accepted;
      for (let i = 0; i < 20; i++) expect(await kafkaCheck()).toBe('up');
      expect(proxied.proxy.stats().accepted).toBe(accepted);

      proxied.proxy.setRefusing(true);
      const down = await instance.get('/health?scope=instance');
      expect(down.status).toBe(503);
      expect(down.body.data.checks).toMatchObject({ database: 'up', kafka: 'down' });
      expect(down.body.data.status).toBe('degraded');

      proxied.proxy.setRefusing(false);
      await waitFor(async () => (await instance.get('/health?scope=instance')).status === 200 || undefined, {
        timeoutMs: 60_000,
        description: 'health back to 200 after the cluster returns',
      });
    } finally {
      await outageGateway?.close();
      await proxied.stop();
    }
  }, 180_000);
});
