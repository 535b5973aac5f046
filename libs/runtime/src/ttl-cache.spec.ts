import { ManualClock } from './clock';
import { TtlCache } from './ttl-cache';

describe('TtlCache', () => {
  let clock: ManualClock;
  const counter = () => {
    let loads = 0;
    return { load: async () => `v${++loads}`, loads: () => loads };
  };

  beforeEach(() => (clock = new ManualClock(1_000)));

  it('serves a loaded value until its time to live is over, then loads again', async () => {
    const cache = new TtlCache<string>({ ttlMs: 100, maxEntries: 10, clock });
    const source = counter();
    expect(await cache.getOrLoad('a', source.load)).toBe('v1');
    clock.atMs += 99;
    expect(await cache.getOrLoad('a', source.load)).toBe('v1');
    clock.atMs += 1;
    expect(await cache.getOrLoad('a', source.load)).toBe('v2');
    expect(source.loads()).toBe(2);
  });

  it('shares one load between concurrent misses of a key, not between keys', async () => {
    const cache = new TtlCache<string>({ ttlMs: 100, maxEntries: 10, clock });
    const source = counter();
    const answers = await Promise.all([
      cache.getOrLoad('a', source.load),
      cache.getOrLoad('a', source.load),
      cache.getOrLoad('b', source.load),
    ]);
    expect(answers).toEqual(['v1', 'v1', 'v2']);
    expect(source.loads()).toBe(2);
  });

  it('does not remember a failed load: every waiter gets the failure, the next call loads again', async () => {
    const cache = new TtlCache<string>({ ttlMs: 100, maxEntries: 10, clock });
    const failing = () => Promise.reject(new Error('down'));
    await expect(Promise.all([cache.getOrLoad('a', failing), cache.getOrLoad('a', failing)])).rejects.toThrow(
      'down',
    );
    expect(await cache.getOrLoad('a', async () => 'up')).toBe('up');
  });

  it('loads every time with a time to live of 0', async () => {
    const cache = new TtlCache<string>({ ttlMs: 0, maxEntries: 10, clock });
    const source = counter();
    await cache.getOrLoad('a', source.load);
    await cache.getOrLoad('a', source.load);
    expect(source.loads()).toBe(2);
    expect(cache.size).toBe(0);
  });

  it('keeps at most maxEntries, dropping expired entries first and then the oldest', async () => {
    const cache = new TtlCache<string>({ ttlMs: 100, maxEntries: 2, clock });
    const source = counter();
    await cache.getOrLoad('a', source.load); // v1
    clock.atMs += 50;
    await cache.getOrLoad('b', source.load); // v2
    await cache.getOrLoad('c', source.load); // v3: full, nothing expired → 'a' (oldest) goes
    expect(cache.size).toBe(2);
    expect(await cache.getOrLoad('b', source.load)).toBe('v2');
    expect(await cache.getOrLoad('a', source.load)).toBe('v4');
  });

  describe('with a stale window', () => {
    /** A load that answers when told to, or fails. */
    const gated = () => {
      let loads = 0;
      const pending: { resolve: (v: string) => void; reject: (e: Error) => void }[] = [];
      return {
        load: () =>
          new Promise<string>((resolve, reject) => {
            loads += 1;
            pending.push({ resolve: () => resolve(`v${loads}`), reject });
          }),
        answer: () => pending.shift()!.resolve(''),
        fail: () => pending.shift()!.reject(new Error('busy')),
        loads: () => loads,
      };
    };
    const settle = () => new Promise((resolve) => setImmediate(resolve));
    /** A cache (TTL 100 ms, stale window 1 s) whose key 'a' was loaded as v1 just now. */
    const loadedOnce = async () => {
      const cache = new TtlCache<string>({ ttlMs: 100, staleMs: 1_000, maxEntries: 10, clock });
      const source = gated();
      const first = cache.getOrLoad('a', source.load);
      source.answer();
      expect(await first).toBe('v1');
      return { cache, source };
    };

    it('serves the expired value at once while one reload runs, then the reloaded one', async () => {
      const { cache, source } = await loadedOnce();
      clock.atMs += 100;
      // Expired: both callers get v1 without waiting, and only one reload starts.
      expect(
        await Promise.all([cache.getOrLoad('a', source.load), cache.getOrLoad('a', source.load)]),
      ).toEqual(['v1', 'v1']);
      expect(source.loads()).toBe(2);
      source.answer();
      await settle();
      expect(await cache.getOrLoad('a', source.load)).toBe('v2');
      expect(source.loads()).toBe(2);
    });

    it('keeps serving the stale value when the reload fails, and tries again on the next call', async () => {
      const { cache, source } = await loadedOnce();
      clock.atMs += 500;
      expect(await cache.getOrLoad('a', source.load)).toBe('v1');
      source.fail();
      await settle();
      expect(await cache.getOrLoad('a', source.load)).toBe('v1');
      expect(source.loads()).toBe(3);
      source.answer();
      await settle();
      expect(await cache.getOrLoad('a', source.load)).toBe('v3');
    });

    it('waits for a load once the value is older than the time to live and the stale window', async () => {
      const { cache, source } = await loadedOnce();
      clock.atMs += 1_100;
      const waiting = cache.getOrLoad('a', source.load);
      source.fail();
      await expect(waiting).rejects.toThrow('busy');
      expect(cache.peek('a')).toBeUndefined();
    });
  });
});
