import { AsyncLocalStorage } from 'node:async_hooks';
import { GroupedWrites } from './grouped-writes';

/** A store whose writes finish when the test says: each write's items, and a way to end it. */
function controlledStore() {
  const writes: Array<{ items: number[]; finish(error?: Error): void }> = [];
  const write = (items: number[]) =>
    new Promise<void>((resolve, reject) => {
      writes.push({ items, finish: (error) => (error ? reject(error) : resolve()) });
    });
  return { writes, write };
}

const settled = async (promises: Promise<void>[]) => Promise.allSettled(promises);
const flush = () => new Promise((resolve) => setImmediate(resolve));

describe('GroupedWrites', () => {
  it('writes an item at once when nothing is in flight', async () => {
    const store = controlledStore();
    const writes = new GroupedWrites({ write: store.write, maxBatch: 10, maxInFlight: 1 });
    const written = writes.add(1);
    expect(store.writes.map((w) => w.items)).toEqual([[1]]);
    store.writes[0].finish();
    await expect(written).resolves.toBeUndefined();
  });

  it('groups the items that arrive while batches are in flight, in order, up to maxBatch a batch', async () => {
    const store = controlledStore();
    const writes = new GroupedWrites({ write: store.write, maxBatch: 3, maxInFlight: 2 });
    const added = [1, 2, 3, 4, 5, 6, 7].map((n) => writes.add(n));
    // Two go alone (two in flight); the other five wait.
    expect(store.writes.map((w) => w.items)).toEqual([[1], [2]]);
    expect(writes.pendingCount).toBe(5);
    store.writes[0].finish();
    await flush();
    expect(store.writes.map((w) => w.items)).toEqual([[1], [2], [3, 4, 5]]);
    store.writes[1].finish();
    await flush();
    expect(store.writes.map((w) => w.items)).toEqual([[1], [2], [3, 4, 5], [6, 7]]);
    store.writes[2].finish();
    store.writes[3].finish();
    expect((await settled(added)).map((r) => r.status)).toEqual(Array(7).fill('fulfilled'));
    expect(writes.pendingCount).toBe(0);
  });

  it('settles each caller with its own batch: a failed batch rejects its items only', async () => {
    const store = controlledStore();
    const writes = new GroupedWrites({ write: store.write, maxBatch: 10, maxInFlight: 1 });
    const first = writes.add(1);
    const grouped = [writes.add(2), writes.add(3)];
    store.writes[0].finish();
    await flush();
    store.writes[1].finish(new Error('connection lost'));
    await expect(first).resolves.toBeUndefined();
    for (const result of await settled(grouped))
      expect(result).toEqual({ status: 'rejected', reason: new Error('connection lost') });
    // The writer goes on after a failure.
    const later = writes.add(4);
    expect(store.writes[2].items).toEqual([4]);
    store.writes[2].finish();
    await expect(later).resolves.toBeUndefined();
  });

  it("resolves each caller with its own item's result", async () => {
    const writes = new GroupedWrites<number, string>({
      write: async (items) => items.map((n) => `wrote ${n}`),
      maxBatch: 10,
      maxInFlight: 1,
    });
    expect(await Promise.all([1, 2, 3].map((n) => writes.add(n)))).toEqual(['wrote 1', 'wrote 2', 'wrote 3']);
  });

  it('rejects the batch when the write throws before it returns a promise', async () => {
    const writes = new GroupedWrites<number>({
      write: () => {
        throw new Error('bad statement');
      },
      maxBatch: 10,
      maxInFlight: 1,
    });
    await expect(writes.add(1)).rejects.toThrow('bad statement');
    await expect(writes.add(2)).rejects.toThrow('bad statement');
  });

  it('writes outside the async context of the caller that started the batch', async () => {
    const caller = new AsyncLocalStorage<string>();
    const seen: Array<string | undefined> = [];
    const writes = new GroupedWrites<number>({
      write: async () => void seen.push(caller.getStore()),
      maxBatch: 10,
      maxInFlight: 1,
    });
    await caller.run('request-a', () => writes.add(1));
    expect(seen).toEqual([undefined]);
  });

  it('refuses bounds that are not positive integers', () => {
    const write = async () => undefined;
    expect(() => new GroupedWrites({ write, maxBatch: 0, maxInFlight: 1 })).toThrow(/maxBatch/);
    expect(() => new GroupedWrites({ write, maxBatch: 1, maxInFlight: 1.5 })).toThrow(/maxInFlight/);
  });
});
