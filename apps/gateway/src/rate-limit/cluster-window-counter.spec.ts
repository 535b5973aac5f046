import { ClusterWindowCounter, WindowCount } from './cluster-window-counter';

const KEY = '00000000-0000-4000-8000-000000000001';
const OTHER = '00000000-0000-4000-8000-000000000002';
const W1 = 600_000;
const W2 = 660_000;

/** Counts `n` requests and returns the last count. */
function countTimes(counter: ClusterWindowCounter, n: number, key = KEY, window = W1): number {
  let last = 0;
  for (let i = 0; i < n; i++) last = counter.count(key, window);
  return last;
}

describe('ClusterWindowCounter', () => {
  it('counts locally from zero until it hears from PostgreSQL, per key', () => {
    const counter = new ClusterWindowCounter();
    expect(countTimes(counter, 3)).toBe(3);
    expect(counter.count(OTHER, W1)).toBe(1);
  });

  it('decides on the last known cluster total plus what this instance counted since', () => {
    const counter = new ClusterWindowCounter();
    countTimes(counter, 2);
    const batch = counter.takeSyncBatch(W1);
    expect(batch).toEqual([{ apiKeyId: KEY, windowStartMs: W1, count: 2 }]);
    // Another instance had synced 5 requests: the total after adding ours is 7.
    counter.settle(batch, [{ apiKeyId: KEY, windowStartMs: W1, count: 7 }]);
    expect(counter.count(KEY, W1)).toBe(8);
    expect(counter.count(KEY, W1)).toBe(9);
  });

  it('keeps counting requests that arrive while a sync is in flight, and sends them in the next batch', () => {
    const counter = new ClusterWindowCounter();
    countTimes(counter, 2);
    const first = counter.takeSyncBatch(W1);
    // In flight: the two sent still count, plus the new one.
    expect(counter.count(KEY, W1)).toBe(3);
    counter.settle(first, [{ apiKeyId: KEY, windowStartMs: W1, count: 2 }]);
    expect(counter.pendingCount()).toBe(1);
    expect(counter.count(KEY, W1)).toBe(4);
    expect(counter.takeSyncBatch(W1)).toEqual([{ apiKeyId: KEY, windowStartMs: W1, count: 2 }]);
  });

  it('never lowers a known total when an older answer arrives', () => {
    const counter = new ClusterWindowCounter();
    counter.count(KEY, W1);
    const batch = counter.takeSyncBatch(W1);
    counter.settle(batch, [{ apiKeyId: KEY, windowStartMs: W1, count: 10 }]);
    counter.settle([], [{ apiKeyId: KEY, windowStartMs: W1, count: 4 }]);
    expect(counter.count(KEY, W1)).toBe(11);
  });

  it('starts every key from zero in a new window and ignores late answers about the ended one', () => {
    const counter = new ClusterWindowCounter();
    countTimes(counter, 5);
    const batch = counter.takeSyncBatch(W1);
    expect(counter.count(KEY, W2)).toBe(1);
    counter.settle(batch, [{ apiKeyId: KEY, windowStartMs: W1, count: 50 }]);
    expect(counter.count(KEY, W2)).toBe(2);
    counter.restore(batch); // nothing of W1 comes back
    expect(counter.takeSyncBatch(W2)).toEqual([{ apiKeyId: KEY, windowStartMs: W2, count: 2 }]);
  });

  it('still sends counts of a window that just ended (no request since), then forgets the key', () => {
    const counter = new ClusterWindowCounter();
    countTimes(counter, 2);
    const late = counter.takeSyncBatch(W2);
    expect(late).toEqual([{ apiKeyId: KEY, windowStartMs: W1, count: 2 }]);
    counter.settle(late, [{ apiKeyId: KEY, windowStartMs: W1, count: 2 }]);
    expect(counter.takeSyncBatch(W2)).toEqual([]);
    expect(counter.pendingCount()).toBe(0);
    expect(counter.count(KEY, W2)).toBe(1);
  });

  it('while syncs fail, keeps limiting on the last known total plus all local counts, and sends them all once one succeeds', () => {
    const counter = new ClusterWindowCounter();
    counter.count(KEY, W1);
    counter.settle(counter.takeSyncBatch(W1), [{ apiKeyId: KEY, windowStartMs: W1, count: 6 }]);

    const failed: WindowCount[][] = [];
    for (let round = 0; round < 3; round++) {
      counter.count(KEY, W1);
      counter.count(KEY, W1);
      const batch = counter.takeSyncBatch(W1);
      failed.push(batch);
      counter.restore(batch); // PostgreSQL unreachable
    }
    // Folded: each failed round carried the earlier failures' counts too.
    expect(failed.map((b) => b[0].count)).toEqual([2, 4, 6]);
    expect(counter.count(KEY, W1)).toBe(6 + 6 + 1);

    const recovered = counter.takeSyncBatch(W1);
    expect(recovered).toEqual([{ apiKeyId: KEY, windowStartMs: W1, count: 7 }]);
    counter.settle(recovered, [{ apiKeyId: KEY, windowStartMs: W1, count: 6 + 7 + 3 }]);
    expect(counter.pendingCount()).toBe(0);
    expect(counter.count(KEY, W1)).toBe(17);
  });

  it('batches one row per key seen in the window: its new counts, or 0 to only refresh its total', () => {
    const counter = new ClusterWindowCounter();
    countTimes(counter, 3, KEY);
    countTimes(counter, 1, OTHER);
    const first = counter.takeSyncBatch(W1);
    expect(first).toEqual([
      { apiKeyId: KEY, windowStartMs: W1, count: 3 },
      { apiKeyId: OTHER, windowStartMs: W1, count: 1 },
    ]);
    counter.settle(first, [
      { apiKeyId: KEY, windowStartMs: W1, count: 3 },
      { apiKeyId: OTHER, windowStartMs: W1, count: 1 },
    ]);
    counter.count(OTHER, W1);
    expect(counter.takeSyncBatch(W1)).toEqual([
      { apiKeyId: KEY, windowStartMs: W1, count: 0 },
      { apiKeyId: OTHER, windowStartMs: W1, count: 1 },
    ]);
    // Once the window has ended, keys with nothing to send are dropped.
    expect(counter.takeSyncBatch(W2)).toEqual([]);
    expect(counter.count(KEY, W2)).toBe(1);
  });

  it('a quiet instance learns what the others counted from a refresh-only row', () => {
    const counter = new ClusterWindowCounter();
    counter.count(KEY, W1);
    const first = counter.takeSyncBatch(W1);
    counter.settle(first, [{ apiKeyId: KEY, windowStartMs: W1, count: 1 }]);
    const refresh = counter.takeSyncBatch(W1);
    expect(refresh).toEqual([{ apiKeyId: KEY, windowStartMs: W1, count: 0 }]);
    counter.settle(refresh, [{ apiKeyId: KEY, windowStartMs: W1, count: 9 }]);
    expect(counter.count(KEY, W1)).toBe(10);
  });
});
