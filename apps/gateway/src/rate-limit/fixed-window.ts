/** Arithmetic of the fixed-window limiter, kept pure so it can be tested without a database. */
export interface WindowPosition {
  windowStartMs: number;
  resetSeconds: number;
}

export function windowPosition(nowMs: number, windowSeconds: number): WindowPosition {
  const windowMs = windowSeconds * 1000;
  const windowStartMs = Math.floor(nowMs / windowMs) * windowMs;
  // Round up so a client waiting RateLimit-Reset seconds always lands in the next window.
  const resetSeconds = Math.max(1, Math.ceil((windowStartMs + windowMs - nowMs) / 1000));
  return { windowStartMs, resetSeconds };
}

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  resetSeconds: number;
}

export function decide(count: number, limit: number, resetSeconds: number): RateLimitDecision {
  return { allowed: count <= limit, limit, remaining: Math.max(0, limit - count), resetSeconds };
}
