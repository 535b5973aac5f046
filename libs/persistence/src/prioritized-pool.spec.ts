import { metricsRegistry } from '@swapgw/runtime';
import { ConnectionPermits } from './prioritized-pool';

/** The connection waits observed so far for `lane`: how many, and their sum in seconds. */
async function waitsOf(lane: string): Promise<{ count: number; sum: number }> {
  const metric = await metricsRegistry().getSingleMetric('swapgw_db_connection_wait_seconds')!.get();
  const value = (suffix: string) =>
    metric.values.find(
      (v) =>
        (v as { metricName?: string }).metricName === `swapgw_db_connection_wait_seconds_${suffix}` &&
        v.labels.lane === lane,
    )?.value ?? 0;
  return { count: value('count'), sum: value('sum') };
}

describe('ConnectionPermits', () => {
  it('hands a returned permit to the first lane with a waiter, and times each wait by lane', async () => {
    const permits = new ConnectionPermits(1, 0);
    const before = { command: await waitsOf('command'), other: await waitsOf('other') };
    const granted: string[] = [];

    await permits.acquire('other'); // free: no wait
    const later = permits.acquire('other').then(() => granted.push('other'));
    const command = permits.acquire('command').then(() => granted.push('command'));
    await new Promise((resolve) => setTimeout(resolve, 30));
    permits.release();
    await command;
    permits.release();
    await later;

    expect(granted).toEqual(['command', 'other']);
    const after = { command: await waitsOf('command'), other: await waitsOf('other') };
    expect(after.command.count - before.command.count).toBe(1);
    expect(after.command.sum - before.command.sum).toBeGreaterThanOrEqual(0.025);
    // The free permit (no wait) and the second waiter, which waited longer than the command.
    expect(after.other.count - before.other.count).toBe(2);
    expect(after.other.sum - before.other.sum).toBeGreaterThan(after.command.sum - before.command.sum);
  });
});
