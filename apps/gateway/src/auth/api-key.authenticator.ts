import { Inject, Injectable } from '@nestjs/common';
import { GatewayConfig } from '../config/gateway.config';
import { ApiKeyPrincipal, ApiKeyStore } from './api-key.store';
import { hashApiKey } from './api-key';

interface CacheEntry {
  principal: ApiKeyPrincipal | null;
  expiresAtMs: number;
}

const MAX_CACHED_KEYS = 10_000;

/**
 * Resolves keys through a short in-process cache so that polling clients do not cost a database
 * round trip per request. Revocation therefore propagates within AUTH_CACHE_TTL_MS on every
 * instance. Unknown keys are cached too (same TTL) so that a flood of bad keys stays off the
 * database; the cache is keyed by the key's hash, never the key.
 */
@Injectable()
export class ApiKeyAuthenticator {
  private readonly cache = new Map<string, CacheEntry>();

  constructor(
    private readonly store: ApiKeyStore,
    @Inject(GatewayConfig) private readonly config: GatewayConfig,
  ) {}

  async authenticate(key: string): Promise<ApiKeyPrincipal | null> {
    const cacheKey = hashApiKey(key);
    const now = Date.now();
    const cached = this.cache.get(cacheKey);
    if (cached && cached.expiresAtMs > now) return cached.principal;

    const principal = await this.store.resolve(key);
    if (this.config.AUTH_CACHE_TTL_MS > 0) {
      if (this.cache.size >= MAX_CACHED_KEYS) this.evictExpiredOrOldest(now);
      this.cache.set(cacheKey, { principal, expiresAtMs: now + this.config.AUTH_CACHE_TTL_MS });
    }
    return principal;
  }

  private evictExpiredOrOldest(now: number): void {
    for (const [k, entry] of this.cache) if (entry.expiresAtMs <= now) this.cache.delete(k);
    // Maps iterate in insertion order: drop the oldest when everything is still fresh.
    if (this.cache.size >= MAX_CACHED_KEYS) this.cache.delete(this.cache.keys().next().value as string);
  }
}
