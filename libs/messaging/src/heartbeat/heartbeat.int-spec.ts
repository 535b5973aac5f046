import { MONITORING_TOPICS } from '@swapgw/contracts';
import { waitFor } from '@swapgw/testing';
import { SystemClock } from '@swapgw/runtime';
import { ensureTopics } from '../kafka/ensure-topics';
import { testKafkaSettings, uniqueSuffix } from '../testing/messaging-test-support';
import { HeartbeatMonitor } from './heartbeat-monitor';
import { HeartbeatPublisher } from './heartbeat-publisher';

// A publisher and a monitor on the real `service.heartbeats` topic. Service names are unique to the
// run, so beats of real services on the same broker change nothing here.
const suffix = uniqueSuffix();
const service = `itest-svc-${suffix}`;
const silent = `itest-silent-${suffix}`;
const INTERVAL_MS = 300;
const TIMEOUT_MS = 1500;

describe('heartbeats over Kafka', () => {
  let ready = true;
  const publisher = new HeartbeatPublisher(testKafkaSettings(service), service, new SystemClock(), {
    intervalMs: INTERVAL_MS,
    isReady: () => ready,
  });
  const monitor = new HeartbeatMonitor(testKafkaSettings('itest-watcher'), {
    services: [service, silent],
    timeoutMs: TIMEOUT_MS,
    clock: new SystemClock(),
  });

  beforeAll(async () => {
    await ensureTopics(testKafkaSettings('itest-heartbeat-admin'), [...MONITORING_TOPICS]);
    monitor.start();
    await waitFor(() => monitor.listening(), {
      description: 'the monitor to join its group',
      timeoutMs: 30_000,
    });
    publisher.start();
  });

  afterAll(async () => {
    await Promise.all([publisher.stop(), monitor.stop()]);
  });

  it('sees a beating service up, and a silent one down once it has listened for a full timeout', async () => {
    await waitFor(() => monitor.statuses()[service] === 'up', {
      description: 'the beating service up',
      timeoutMs: 10_000,
    });
    await waitFor(() => monitor.statuses()[silent] === 'down', {
      description: 'the silent service down',
      timeoutMs: TIMEOUT_MS + 5_000,
    });
    expect(monitor.statuses()).toEqual({ [service]: 'up', [silent]: 'down' });
  });

  it('sees the service down within the timeout once it stops beating (not ready), and up at its next beat', async () => {
    ready = false;
    const stoppedAt = Date.now();
    await waitFor(() => monitor.statuses()[service] === 'down', {
      description: 'the service down',
      timeoutMs: TIMEOUT_MS + 5_000,
      intervalMs: 50,
    });
    expect(Date.now() - stoppedAt).toBeGreaterThanOrEqual(TIMEOUT_MS - INTERVAL_MS - 100);

    ready = true;
    const readyAt = Date.now();
    await waitFor(() => monitor.statuses()[service] === 'up', {
      description: 'the service up again',
      timeoutMs: INTERVAL_MS + 5_000,
      intervalMs: 50,
    });
    expect(Date.now() - readyAt).toBeLessThan(INTERVAL_MS + 5_000);
  });
});
