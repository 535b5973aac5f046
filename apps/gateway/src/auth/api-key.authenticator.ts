import { Inject, Injectable } from '@nestjs/common';
import { Clock, TtlCache } from '@swapgw/runtime';
import { GatewayConfig } from '../config/gateway.config';
import { ApiKeyPrincipal, ApiKeyRepository } from './api-key.repository';
import { hashApiKey } from './api-key';

const MAX_CACHED_KEYS = 10_000;
/** Small on purpose: a flood of made-up keys churns this cache, never the one of valid keys. */
const MAX_CACHED_UNKNOWN_KEYS = 1_000;

/** What the caches know of a key: its principal, `null` when it is known to be invalid, or nothing. */
export type CachedVerdict = ApiKeyPrincipal | null | undefined;

/**
 * Resolves keys through short in-process caches so that polling clients do not cost a database
 * round trip per request. Revocation therefore propagates within AUTH_CACHE_TTL_MS on every
 * instance. Valid and unknown keys are kept apart: unknown keys go to a small cache of their own
 * (same TTL) that keeps a flood of bad keys off the database and cannot evict a valid key. Both
 * are keyed by the key's hash, never the key; concurrent first uses of a key share one lookup.
 */
@Injectable()
export class ApiKeyAuthenticator {
  private readonly valid: TtlCache<ApiKeyPrincipal>;
  private readonly invalid: TtlCache<true>;
  private readonly resolving = new Map<string, Promise<ApiKeyPrincipal | null>>();

  constructor(
    private readonly store: ApiKeyRepository,
    @Inject(GatewayConfig) config: GatewayConfig,
    clock: Clock,
  ) {
    const ttlMs = config.AUTH_CACHE_TTL_MS;
    this.valid = new TtlCache({ ttlMs, maxEntries: MAX_CACHED_KEYS, clock });
    this.invalid = new TtlCache({ ttlMs, maxEntries: MAX_CACHED_UNKNOWN_KEYS, clock });
  }

  authenticate(key: string): Promise<ApiKeyPrincipal | null> {
    const hash = hashApiKey(key);
    const cached = this.cachedByHash(hash);
    if (cached !== undefined) return Promise.resolve(cached);
    let resolving = this.resolving.get(hash);
    if (!resolving) {
      resolving = this.store
        .resolve(key)
        .then((principal) => {
          if (principal) this.valid.set(hash, principal);
          else this.invalid.set(hash, true);
          return principal;
        })
        .finally(() => this.resolving.delete(hash));
      this.resolving.set(hash, resolving);
    }
    return resolving;
  }

  /** What the caches say about `key` now, without asking the database (the edge of cached reads). */
  cached(key: string): CachedVerdict {
    return this.cachedByHash(hashApiKey(key));
  }

  private cachedByHash(hash: string): CachedVerdict {
    const principal = this.valid.peek(hash);
    if (principal) return principal;
    return this.invalid.peek(hash) ? null : undefined;
  }
}
