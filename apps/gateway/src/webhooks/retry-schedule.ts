export interface RetrySchedule {
  /** Delay before the first retry. */
  baseDelayMs: number;
  /** No single delay is longer than this. */
  maxDelayMs: number;
  /** Past this long after the delivery's first attempt, no retry is scheduled: the delivery is dead. */
  windowMs: number;
}

/**
 * Delay after the `failedAttempts`-th failed attempt: base × 2^(n-1), capped at maxDelayMs, then
 * "equal jitter" (half fixed, half random) so that receivers coming back from an outage are not hit
 * by every sender at the same instant, while a delay never drops below half its nominal value.
 */
export function retryDelayMs(
  schedule: RetrySchedule,
  failedAttempts: number,
  random: () => number = Math.random,
): number {
  const exponent = Math.min(Math.max(failedAttempts - 1, 0), 40);
  const nominal = Math.min(schedule.maxDelayMs, schedule.baseDelayMs * 2 ** exponent);
  return Math.round(nominal / 2 + (nominal / 2) * random());
}

/**
 * When to try again after a failed attempt, or null when the retry window (from `windowStartMs`,
 * the first attempt or the last manual redelivery) is over: the delivery becomes dead.
 */
export function nextAttemptAtMs(
  schedule: RetrySchedule,
  failedAttempts: number,
  windowStartMs: number,
  nowMs: number,
  random: () => number = Math.random,
): number | null {
  const at = nowMs + retryDelayMs(schedule, failedAttempts, random);
  return at > windowStartMs + schedule.windowMs ? null : at;
}
