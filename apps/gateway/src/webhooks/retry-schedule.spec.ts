import { nextAttemptAtMs, retryDelayMs, RetrySchedule } from './retry-schedule';

describe('webhook retry schedule', () => {
  const day: RetrySchedule = { baseDelayMs: 10_000, maxDelayMs: 3_600_000, windowMs: 86_400_000 };

  it('doubles from the base delay up to the cap, jitter between half and all of it', () => {
    const nominal = [1, 2, 3, 4, 9, 10, 20].map((n) => retryDelayMs(day, n, () => 1));
    expect(nominal).toEqual([10_000, 20_000, 40_000, 80_000, 2_560_000, 3_600_000, 3_600_000]);
    expect(retryDelayMs(day, 3, () => 0)).toBe(20_000);
    expect(retryDelayMs(day, 3, () => 0.5)).toBe(30_000);
  });

  it('keeps retrying for the whole window, then gives up (dead)', () => {
    let now = 0;
    let failed = 0;
    for (;;) {
      failed += 1;
      const next = nextAttemptAtMs(day, failed, 0, now, () => 1);
      if (next === null) break;
      now = next;
    }
    // The last attempt falls inside the window, within one capped delay of its end.
    expect(now).toBeLessThanOrEqual(day.windowMs);
    expect(now).toBeGreaterThan(day.windowMs - day.maxDelayMs);
    expect(failed).toBeGreaterThan(24);
  });

  it('measures the window from its start, so a manual redelivery gets a fresh one', () => {
    expect(nextAttemptAtMs(day, 30, 0, 86_000_000, () => 1)).toBeNull();
    expect(nextAttemptAtMs(day, 30, 85_000_000, 86_000_000, () => 1)).toBe(86_000_000 + 3_600_000);
  });
});
