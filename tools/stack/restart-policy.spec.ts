// tools/stack/restart-policy.js is the plain CommonJS that start.mjs loads before any build.
interface RestartPolicy {
  RESTART_BACKOFF: { initialMs: number; maxMs: number; resetAfterMs: number };
  restartDelayMs(attempt: number): number;
  nextRestart(previousAttempt: number, upMs: number): { attempt: number; delayMs: number };
}
const policy = require('./restart-policy.js') as RestartPolicy;

describe('npm start restart back-off', () => {
  it('waits 1 s before the first restart and doubles up to 30 s', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 50].map((n) => policy.restartDelayMs(n))).toEqual([
      1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000,
    ]);
  });

  it('counts restarts in a row while the app fails again before it has been up for a minute', () => {
    let next = policy.nextRestart(0, 5_000);
    expect(next).toEqual({ attempt: 1, delayMs: 1000 });
    next = policy.nextRestart(next.attempt, 0); // failed to start
    expect(next).toEqual({ attempt: 2, delayMs: 2000 });
    next = policy.nextRestart(next.attempt, 59_999);
    expect(next).toEqual({ attempt: 3, delayMs: 4000 });
  });

  it('starts over at 1 s once the app stayed up for a minute', () => {
    expect(policy.nextRestart(6, policy.RESTART_BACKOFF.resetAfterMs)).toEqual({ attempt: 1, delayMs: 1000 });
  });
});
