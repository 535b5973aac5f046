import { fixKafkajsRequestQueueTimer, kafkajsRequestQueueClass } from './kafkajs-request-queue-timer';

/** A real kafkajs request queue (the installed version's class), with no socket behind it. */
function requestQueue() {
  const RequestQueue = kafkajsRequestQueueClass() as unknown as new (options: object) => {
    pending: unknown[];
    throttleCheckTimeoutId: NodeJS.Timeout | null;
    maybeThrottle(ms: number): void;
    checkPendingRequests(): void;
    destroy(): void;
  };
  const quiet = () => undefined;
  return new RequestQueue({
    maxInFlightRequests: 0, // nothing can be sent: pending requests stay pending
    requestTimeout: 1000,
    enforceRequestTimeout: false,
    clientId: 'spec',
    broker: 'localhost:9092',
    logger: { debug: quiet, info: quiet, warn: quiet, error: quiet },
  });
}

describe('fixKafkajsRequestQueueTimer', () => {
  beforeAll(() => fixKafkajsRequestQueueTimer());

  it('arms no timer when nothing is pending and no throttle is in force (kafkajs re-armed a 1 ms one for ever)', () => {
    const queue = requestQueue();
    queue.checkPendingRequests(); // what every response from the broker does
    expect(queue.throttleCheckTimeoutId).toBeNull();
    queue.destroy();
  });

  it('checks pending requests again after 10 ms, and a throttled queue when its throttle ends', () => {
    const queue = requestQueue();
    queue.pending.push({ correlationId: 1 });
    queue.checkPendingRequests();
    const pendingCheck = queue.throttleCheckTimeoutId as unknown as { _idleTimeout: number };
    expect(pendingCheck?._idleTimeout).toBe(10);
    queue.destroy();

    const throttled = requestQueue();
    throttled.maybeThrottle(500);
    throttled.checkPendingRequests();
    const throttleEnd = throttled.throttleCheckTimeoutId as unknown as { _idleTimeout: number };
    expect(throttleEnd?._idleTimeout).toBeGreaterThan(400);
    expect(throttleEnd?._idleTimeout).toBeLessThanOrEqual(500);
    throttled.destroy();
  });

  it('runs the pending check when its timer fires, and stops once nothing is pending', () => {
    jest.useFakeTimers();
    try {
      const queue = requestQueue();
      const checks = jest.spyOn(queue, 'checkPendingRequests');
      queue.pending.push({ correlationId: 1 });
      queue.checkPendingRequests();
      queue.pending.length = 0; // sent, say
      jest.advanceTimersByTime(10);
      expect(checks).toHaveBeenCalledTimes(2);
      expect(queue.throttleCheckTimeoutId).toBeNull();
      jest.advanceTimersByTime(1000);
      expect(checks).toHaveBeenCalledTimes(2);
      queue.destroy();
    } finally {
      jest.useRealTimers();
    }
  });
});
