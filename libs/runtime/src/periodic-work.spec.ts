import { metricsRegistry } from './metrics/metrics-registry';
import { PeriodicWork } from './periodic-work';

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Polls `condition` until it holds (fails the test after 5 s). */
async function until(condition: () => boolean): Promise<void> {
  for (const deadline = Date.now() + 5_000; !condition(); await tick(5))
    if (Date.now() > deadline) throw new Error('condition not met within 5 s');
}

async function passesOf(task: string, outcome: string): Promise<number> {
  const metric = (await metricsRegistry().getMetricsAsJSON()).find(
    (m) => m.name === 'swapgw_periodic_passes_total',
  );
  const value = (
    metric?.values as Array<{ labels: Record<string, string>; value: number }> | undefined
  )?.find((v) => v.labels.task === task && v.labels.outcome === outcome);
  return value?.value ?? 0;
}

describe('PeriodicWork', () => {
  it('never overlaps passes, runs again at once while a pass finds work, and waits for the pass in flight on stop', async () => {
    let running = 0;
    let maxRunning = 0;
    const found = [3, 2, 0, 0, 0, 0, 0, 0, 0, 0];
    let passes = 0;
    const work = new PeriodicWork({
      name: 'overlap-test',
      intervalMs: 20,
      run: async () => {
        running += 1;
        maxRunning = Math.max(maxRunning, running);
        await tick(30); // longer than the interval
        running -= 1;
        return found[passes++] ?? 0;
      },
    });
    work.start(0);
    // The passes that found work (3, then 2) are followed by one at once; counted, not timed (a
    // fixed window failed on a loaded machine).
    await until(() => passes >= 3);
    await work.stop();
    const afterStop = passes;
    expect(maxRunning).toBe(1);
    expect(running).toBe(0); // stop() waited for the pass in flight
    await tick(100);
    expect(passes).toBe(afterStop);
  });

  it('runs a pass at once when woken, or right after the pass in flight, never two at a time', async () => {
    let running = 0;
    let maxRunning = 0;
    let started = 0;
    // Each pass runs until the test lets it end: what is checked is the order of events, not timing.
    const endPass: Array<() => void> = [];
    const work = new PeriodicWork({
      name: 'wake-test',
      intervalMs: 60_000,
      run: async () => {
        started += 1;
        running += 1;
        maxRunning = Math.max(maxRunning, running);
        await new Promise<void>((resolve) => endPass.push(resolve));
        running -= 1;
      },
    });
    work.start(); // first pass a minute away
    await tick(20);
    expect(started).toBe(0);
    work.wake();
    await until(() => started === 1); // long before the minute
    work.wake(); // during the pass: one more pass right after it, not beside it
    work.wake();
    await tick(20);
    expect(started).toBe(1);
    endPass[0]();
    await until(() => started === 2);
    expect(maxRunning).toBe(1);
    endPass[1]();
    await tick(50);
    expect(started).toBe(2); // the two wakes made one pass; back to the interval
    await work.stop();
    work.wake(); // stopped: nothing
    await tick(20);
    expect(started).toBe(2);
  });

  it('keeps going after a failed pass, counting it; reports a pass over its bound as slow', async () => {
    let calls = 0;
    const work = new PeriodicWork({
      name: 'failing-test',
      intervalMs: 10,
      slowAfterMs: 20,
      run: async () => {
        calls += 1;
        if (calls === 1) throw new Error('boom');
        if (calls === 2) await tick(40);
      },
    });
    work.start(0);
    await tick(150);
    await work.stop();
    expect(calls).toBeGreaterThanOrEqual(3);
    expect(await passesOf('failing-test', 'failed')).toBe(1);
    expect(await passesOf('failing-test', 'slow')).toBe(1);
    expect(await passesOf('failing-test', 'ok')).toBeGreaterThanOrEqual(2);
  });
});
