import type { Clock } from './clock';

export interface TtlCacheOptions {
  /** How long a loaded value is served; 0 turns the cache off (every call loads). */
  ttlMs: number;
  /**
   * How long past its time to live a value is still served while a reload runs behind it (and goes
   * on being served when that reload fails): the caller never waits for a key it has seen within
   * `ttlMs + staleMs`. 0 (the default): an expired value is never served.
   */
  staleMs?: number;
  /** Bound on entries: expired ones (past the stale window too) go first, then the oldest. */
  maxEntries: number;
  /** What time it is when an entry is kept and when its expiry is checked. */
  clock: Clock;
}

interface Entry<V> {
  value: V;
  expiresAtMs: number;
}

/**
 * A small in-process cache with a time to live and single flight: concurrent misses of one key
 * share one load, and a load that fails is not remembered (the next call tries again). With
 * `staleMs`, an expired value is served while one reload refreshes it in the background.
 */
export class TtlCache<V> {
  private readonly entries = new Map<string, Entry<V>>();
  private readonly loading = new Map<string, Promise<V>>();

  constructor(private readonly options: TtlCacheOptions) {}

  private now(): number {
    return this.options.clock.nowMs();
  }

  async getOrLoad(key: string, load: () => Promise<V>): Promise<V> {
    if (this.options.ttlMs <= 0) return load();
    const hit = this.entries.get(key);
    const now = this.now();
    if (hit && hit.expiresAtMs > now) return hit.value;
    const inFlight = this.loading.get(key);
    if (hit && hit.expiresAtMs + this.staleMs > now) {
      // A failed background reload keeps the stale value; the next call past the TTL tries again.
      if (!inFlight) this.startLoad(key, load).catch(() => undefined);
      return hit.value;
    }
    return inFlight ?? this.startLoad(key, load);
  }

  private get staleMs(): number {
    return this.options.staleMs ?? 0;
  }

  private startLoad(key: string, load: () => Promise<V>): Promise<V> {
    const loaded = load()
      .then((value) => {
        this.set(key, value);
        return value;
      })
      .finally(() => this.loading.delete(key));
    this.loading.set(key, loaded);
    return loaded;
  }

  /** The value of `key` while it is fresh, without loading it. */
  peek(key: string): V | undefined {
    const hit = this.entries.get(key);
    return hit && hit.expiresAtMs > this.now() ? hit.value : undefined;
  }

  get size(): number {
    return this.entries.size;
  }

  /** Keeps `value` for the TTL (nothing when the cache is off). */
  set(key: string, value: V): void {
    if (this.options.ttlMs <= 0) return;
    const now = this.now();
    this.entries.delete(key);
    if (this.entries.size >= this.options.maxEntries) {
      for (const [k, entry] of this.entries)
        if (entry.expiresAtMs + this.staleMs <= now) this.entries.delete(k);
      // Maps iterate in insertion order: drop the oldest when everything is still fresh.
      if (this.entries.size >= this.options.maxEntries)
        this.entries.delete(this.entries.keys().next().value as string);
    }
    this.entries.set(key, { value, expiresAtMs: now + this.options.ttlMs });
  }
}
