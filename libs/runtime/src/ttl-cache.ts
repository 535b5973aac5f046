import type { Clock } from './clock';

export interface TtlCacheOptions {
  /** How long a loaded value is served; 0 turns the cache off (every call loads). */
  ttlMs: number;
  /** Bound on entries: expired ones go first, then the oldest. */
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
 * share one load, and a load that fails is not remembered (the next call tries again).
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
    if (hit && hit.expiresAtMs > this.now()) return hit.value;
    const inFlight = this.loading.get(key);
    if (inFlight) return inFlight;
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
      for (const [k, entry] of this.entries) if (entry.expiresAtMs <= now) this.entries.delete(k);
      // Maps iterate in insertion order: drop the oldest when everything is still fresh.
      if (this.entries.size >= this.options.maxEntries)
        this.entries.delete(this.entries.keys().next().value as string);
    }
    this.entries.set(key, { value, expiresAtMs: now + this.options.ttlMs });
  }
}
