// Restart back-off of the apps under `npm start` (tools/stack/start.mjs). Pure, so that
// tools/stack/restart-policy.spec.ts tests it; CommonJS like tools/build/swc-config.js, because
// start.mjs runs on plain Node before any build and jest loads this file as it is.

/**
 * 1 s before the first restart, doubling up to 30 s while the app keeps failing; an app that stayed
 * up for a minute since it was last ready starts over at 1 s.
 */
const RESTART_BACKOFF = Object.freeze({ initialMs: 1000, maxMs: 30_000, resetAfterMs: 60_000 });

/** Delay before the `attempt`-th restart in a row (1-based). */
function restartDelayMs(attempt, policy = RESTART_BACKOFF) {
  const doublings = Math.min(Math.max(0, attempt - 1), 30);
  return Math.min(policy.maxMs, policy.initialMs * 2 ** doublings);
}

/**
 * After an app exited: which restart in a row this is and how long to wait before it.
 * `previousAttempt`: restarts in a row so far (0 before the first); `upMs`: how long the app had
 * been up since it was last ready (0 when it failed before being ready).
 */
function nextRestart(previousAttempt, upMs, policy = RESTART_BACKOFF) {
  const attempt = upMs >= policy.resetAfterMs ? 1 : previousAttempt + 1;
  return { attempt, delayMs: restartDelayMs(attempt, policy) };
}

module.exports = { RESTART_BACKOFF, restartDelayMs, nextRestart };
