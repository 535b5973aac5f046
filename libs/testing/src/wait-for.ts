export interface WaitForOptions {
  /** Give up after this long (default 10 s). */
  timeoutMs?: number;
  /** Pause between attempts (default 100 ms). */
  intervalMs?: number;
  /** What is awaited, for the timeout message ("swap s1 to be completed"). */
  description?: string;
}

export class WaitForTimeoutError extends Error {
  constructor(
    readonly description: string,
    readonly timeoutMs: number,
    readonly attempts: number,
    readonly lastError?: unknown,
    readonly lastValue?: unknown,
  ) {
    const last =
      lastError !== undefined
        ? `; last error: ${lastError instanceof Error ? lastError.message : String(lastError)}`
        : `; last value: ${safeJson(lastValue)}`;
    super(`Timed out after ${timeoutMs} ms (${attempts} attempts) waiting for ${description}${last}`);
    this.name = 'WaitForTimeoutError';
  }
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/**
 * Bounded poll: calls `fn` until it returns a value other than `undefined`, `null` or `false`, and
 * resolves with that value. A throw counts as "not yet" (the last error is reported on timeout),
 * so `fn` can be an assertion. Tests wait for a condition with this, never with a fixed sleep.
 */
export async function waitFor<T>(
  fn: () => T | Promise<T>,
  { timeoutMs = 10_000, intervalMs = 100, description = 'condition' }: WaitForOptions = {},
): Promise<Exclude<T, false | null | undefined>> {
  const deadline = Date.now() + timeoutMs;
  let attempts = 0;
  let lastError: unknown;
  let lastValue: unknown;
  for (;;) {
    attempts += 1;
    try {
      const value = await fn();
      lastError = undefined;
      lastValue = value;
      if (value !== undefined && value !== null && value !== false) {
        return value as Exclude<T, false | null | undefined>;
      }
    } catch (error) {
      lastError = error;
    }
    const remaining = deadline - Date.now();
    if (remaining <= 0) throw new WaitForTimeoutError(description, timeoutMs, attempts, lastError, lastValue);
    await new Promise((resolve) => setTimeout(resolve, Math.min(intervalMs, remaining)));
  }
}
