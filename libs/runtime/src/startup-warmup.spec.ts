import { runStartupWarmups, StartupWarmup, StartupWarmupResult } from './startup-warmup';

const warmup = (warmupName: string, warmUp: () => Promise<unknown>): StartupWarmup => ({
  warmupName,
  warmUp,
});
const never = () => new Promise<never>(() => undefined);

describe('runStartupWarmups', () => {
  it('settles once every warm-up finished, and reports each as done', async () => {
    const finished: string[] = [];
    const results = await runStartupWarmups([
      warmup('chains', async () => void finished.push('chains')),
      warmup('validation', async () => void finished.push('validation')),
    ]);
    expect(finished.sort()).toEqual(['chains', 'validation']);
    expect(results.map(({ name, outcome }) => ({ name, outcome }))).toEqual([
      { name: 'chains', outcome: 'done' },
      { name: 'validation', outcome: 'done' },
    ]);
  });

  it('does not wait past its bound for a warm-up that never answers, and still waits for the others', async () => {
    jest.useFakeTimers();
    try {
      let slowDone = false;
      const logged: StartupWarmupResult[] = [];
      let settled = false;
      const running = runStartupWarmups(
        [
          warmup('dead chain', never),
          warmup(
            'slow chain',
            () => new Promise((resolve) => setTimeout(() => resolve((slowDone = true)), 50)),
          ),
        ],
        300,
        (result) => logged.push(result),
      ).finally(() => (settled = true));
      await jest.advanceTimersByTimeAsync(299);
      expect(slowDone).toBe(true);
      expect(settled).toBe(false);
      await jest.advanceTimersByTimeAsync(1);
      const results = await running;
      expect(results[0]).toMatchObject({
        name: 'dead chain',
        outcome: 'timed out',
        error: 'still running after 300 ms',
      });
      expect(results[1]).toMatchObject({ name: 'slow chain', outcome: 'done' });
      expect(logged.map((result) => result.name)).toEqual(['slow chain', 'dead chain']);
    } finally {
      jest.useRealTimers();
    }
  });

  it('reports a failing warm-up (a throw, or a rejection) and never rejects itself', async () => {
    const results = await runStartupWarmups([
      warmup('throws', () => {
        throw new Error('connect ECONNREFUSED 127.0.0.1:8545');
      }),
      warmup('rejects', () => Promise.reject(new Error('missing response'))),
    ]);
    expect(results).toEqual([
      expect.objectContaining({
        name: 'throws',
        outcome: 'failed',
        error: 'connect ECONNREFUSED 127.0.0.1:8545',
      }),
      expect.objectContaining({ name: 'rejects', outcome: 'failed', error: 'missing response' }),
    ]);
  });

  it('settles at once with nothing to warm', async () => {
    await expect(runStartupWarmups([])).resolves.toEqual([]);
  });
});
