import { api, ApiClient, ApiResponse, waitFor } from '@swapgw/testing';
import { OpenApiValidator } from './support/openapi-validator';
import { PrivateStack, startPrivateStack } from './support/private-stack';

// GET /health follows the Kafka services through their heartbeats on `service.heartbeats`: a
// service killed with SIGKILL is `down` (503 degraded) within SERVICE_HEARTBEAT_TIMEOUT_MS of its
// last beat, and `up` (200) again as soon as it is back and ready. Its own stack (broker, database,
// five apps) with short heartbeat settings, because the test kills that stack's planner.

const INTERVAL_MS = 500;
const TIMEOUT_MS = 2000;
/** Room for a busy machine: an HTTP round trip, a health check, a poll interval. */
const SLACK_MS = 3000;
const SERVICES = ['quote-service', 'execution-planner', 'signer-surface', 'limit-order-service'] as const;
const ALL_UP = Object.fromEntries(SERVICES.map((service) => [service, 'up']));

describe('GET /health and the Kafka services going down and coming back', () => {
  let stack: PrivateStack;
  let anonymous: ApiClient;
  let openApi: OpenApiValidator;

  beforeAll(async () => {
    stack = await startPrivateStack('liveness', {
      env: { HEARTBEAT_INTERVAL_MS: String(INTERVAL_MS), SERVICE_HEARTBEAT_TIMEOUT_MS: String(TIMEOUT_MS) },
    });
    anonymous = api(stack.stack.gatewayUrl!);
    openApi = await OpenApiValidator.fetch(stack.stack.gatewayUrl!);
  }, 600_000);

  afterAll(async () => {
    await stack?.stop();
  }, 120_000);

  const health = async (query = ''): Promise<ApiResponse> => {
    const res = await anonymous.get(`/health${query}`);
    openApi.assertResponse('GET', '/health', res.status, res.body);
    return res;
  };
  /** Polls GET /health until it answers `status`. */
  const healthAnswering = (status: number, timeoutMs: number, description: string): Promise<ApiResponse> =>
    waitFor(
      async () => {
        const res = await health();
        return res.status === status ? res : undefined;
      },
      { timeoutMs, intervalMs: 100, description },
    );

  it('answers 200 with every service up once the stack is ready (the stack waits for its first ok), never down', async () => {
    const first = await health();
    expect(first.status).toBe(200);
    expect(Object.values(first.body.data.checks.services)).not.toContain('down');
    const res = await waitFor(
      async () => {
        const answer = await health();
        return answer.status === 200 && !Object.values(answer.body.data.checks.services).includes('unknown')
          ? answer
          : undefined;
      },
      { timeoutMs: 30_000, description: 'health 200 with every service heard from' },
    );
    expect(res.body.data).toEqual({
      status: 'ok',
      uptimeSeconds: expect.any(Number),
      checks: { database: 'up', kafka: 'up', services: ALL_UP },
    });
  });

  it('answers 503 degraded with execution-planner down within the timeout after it is killed, and 200 once it is back', async () => {
    const planner = stack.stack.get('execution-planner')[0];
    const killedAt = Date.now();
    await planner.kill('SIGKILL');

    const down = await healthAnswering(503, TIMEOUT_MS + SLACK_MS, 'health 503 after the planner was killed');
    const detectedAfterMs = Date.now() - killedAt;
    expect(down.body.data).toEqual({
      status: 'degraded',
      uptimeSeconds: expect.any(Number),
      checks: { database: 'up', kafka: 'up', services: { ...ALL_UP, 'execution-planner': 'down' } },
    });
    // Its last beat was at most one interval before the kill: down no sooner than that, and no later
    // than the timeout (plus slack for the machine).
    expect(detectedAfterMs).toBeGreaterThanOrEqual(TIMEOUT_MS - INTERVAL_MS - 100);
    expect(detectedAfterMs).toBeLessThanOrEqual(TIMEOUT_MS + SLACK_MS);

    // The readiness variant keeps the instance in service: a stopped planner delays builds, it does
    // not take the API away.
    const instance = await health('?scope=instance');
    expect(instance.status).toBe(200);
    expect(instance.body.data.checks.services['execution-planner']).toBe('down');

    // Still down while it stays down (no flapping back on stale data).
    expect((await health()).status).toBe(503);

    await planner.restart(); // resolves once its own /health/ready answers 200
    const readyAt = Date.now();
    const back = await healthAnswering(200, INTERVAL_MS + SLACK_MS, 'health 200 after the planner is back');
    expect(Date.now() - readyAt).toBeLessThanOrEqual(INTERVAL_MS + SLACK_MS);
    expect(back.body.data).toEqual({
      status: 'ok',
      uptimeSeconds: expect.any(Number),
      checks: { database: 'up', kafka: 'up', services: ALL_UP },
    });
  });
});
