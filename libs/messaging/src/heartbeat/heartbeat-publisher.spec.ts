import { MessageEnvelope, ServiceHeartbeat, Topics } from '@swapgw/contracts';
import { ManualClock } from '@swapgw/runtime';
import { HeartbeatPublisher, HeartbeatRecord } from './heartbeat-publisher';
import { heartbeatIntervalFromEnv } from './heartbeat-settings';
import { HeartbeatMonitor } from './heartbeat-monitor';

const settings = { brokers: ['127.0.0.1:1'], clientId: 'execution-planner', instanceId: 'planner-1' };
const BEAT_CLOCK_MS = 1_763_700_000_000;

function publisher(
  options: { ready?: () => boolean | Promise<boolean>; send?: (r: HeartbeatRecord) => Promise<void> } = {},
) {
  const sent: HeartbeatRecord[] = [];
  const beats = new HeartbeatPublisher(settings, 'execution-planner', new ManualClock(BEAT_CLOCK_MS), {
    intervalMs: 1000,
    isReady: options.ready ?? (() => true),
    send:
      options.send ??
      (async (record) => {
        sent.push(record);
      }),
  });
  return { beats, sent };
}

describe('HeartbeatPublisher', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('beats at start and every interval, keyed by service and instance, as a service.heartbeat envelope', async () => {
    const { beats, sent } = publisher();
    beats.start();
    await jest.advanceTimersByTimeAsync(0);
    expect(sent).toHaveLength(1);
    await jest.advanceTimersByTimeAsync(3000);
    expect(sent).toHaveLength(4);
    expect(sent[0].key).toBe('execution-planner/planner-1');
    const envelope = JSON.parse(sent[0].value) as MessageEnvelope<ServiceHeartbeat>;
    expect(envelope).toMatchObject({
      type: 'service.heartbeat',
      version: 1,
      occurredAtMs: BEAT_CLOCK_MS,
      aggregateId: 'execution-planner/planner-1',
      payload: { service: 'execution-planner', instanceId: 'planner-1', intervalMs: 1000 },
    });
    await beats.stop();
    await jest.advanceTimersByTimeAsync(5000);
    expect(sent).toHaveLength(4);
  });

  it('sends nothing while the instance is not ready (or its readiness check throws)', async () => {
    let ready: boolean | 'throw' = false;
    const { beats, sent } = publisher({
      ready: () => {
        if (ready === 'throw') throw new Error('database check failed');
        return ready;
      },
    });
    beats.start();
    await jest.advanceTimersByTimeAsync(2500);
    expect(sent).toHaveLength(0);
    ready = 'throw';
    await jest.advanceTimersByTimeAsync(1000);
    expect(sent).toHaveLength(0);
    ready = true;
    await jest.advanceTimersByTimeAsync(1000);
    expect(sent).toHaveLength(1);
    await beats.stop();
  });

  it('keeps one beat in flight and carries on after a failed send', async () => {
    let calls = 0;
    let release: (() => void) | undefined;
    const { beats } = publisher({
      send: () => {
        calls++;
        if (calls === 1) return new Promise<void>((resolve) => (release = resolve));
        if (calls === 2) return Promise.reject(new Error('broker down'));
        return Promise.resolve();
      },
    });
    beats.start();
    await jest.advanceTimersByTimeAsync(3000);
    expect(calls).toBe(1); // the first send still hangs: later intervals do not pile up
    release?.();
    await jest.advanceTimersByTimeAsync(1000);
    expect(calls).toBe(2); // fails
    await jest.advanceTimersByTimeAsync(1000);
    expect(calls).toBe(3); // the next interval is the retry
    await beats.stop();
  });
});

describe('heartbeatIntervalFromEnv', () => {
  it('defaults to 5 s and reads HEARTBEAT_INTERVAL_MS within its bounds', () => {
    expect(heartbeatIntervalFromEnv({})).toBe(5000);
    expect(heartbeatIntervalFromEnv({ HEARTBEAT_INTERVAL_MS: '500' })).toBe(500);
    expect(() => heartbeatIntervalFromEnv({ HEARTBEAT_INTERVAL_MS: '50' })).toThrow('HEARTBEAT_INTERVAL_MS');
    expect(() => heartbeatIntervalFromEnv({ HEARTBEAT_INTERVAL_MS: '1.5s' })).toThrow(
      'HEARTBEAT_INTERVAL_MS',
    );
  });
});

describe('HeartbeatMonitor.receive', () => {
  it('counts valid heartbeats of watched services and ignores anything else on the topic', () => {
    const clock = new ManualClock(1_000_000);
    const monitor = new HeartbeatMonitor(settings, {
      services: ['execution-planner', 'quote-service'],
      timeoutMs: 3000,
      clock,
    });
    const beat = (payload: Record<string, unknown>, type = 'service.heartbeat') =>
      JSON.stringify({
        eventId: '7f0c1c3e-1b5e-4c8e-9d62-0a4b8e1f2a3b',
        type,
        version: 1,
        occurredAtMs: clock.nowMs(),
        aggregateId: 'k',
        payload,
      });
    monitor.receive(beat({ service: 'execution-planner', instanceId: 'p-1', intervalMs: 1000 }));
    monitor.receive(
      beat({ service: 'quote-service', instanceId: 'q-1', intervalMs: 1000 }, 'something.else'),
    );
    monitor.receive(beat({ service: 'quote-service', instanceId: 'q 1', intervalMs: 1000 }));
    monitor.receive('not json');
    monitor.receive(null);
    expect(monitor.statuses()).toEqual({ 'execution-planner': 'up', 'quote-service': 'unknown' });
    clock.atMs += 3001;
    expect(monitor.statuses()).toEqual({ 'execution-planner': 'down', 'quote-service': 'down' });
    expect(Topics.serviceHeartbeats).toBe('service.heartbeats');
  });
});
