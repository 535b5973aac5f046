import { Inject, Injectable } from '@nestjs/common';
import { TtlCache } from '@swapgw/runtime';
import { GatewayConfig } from '../config/gateway.config';
import { ApiKeyPrincipal, ApiKeyStore } from './api-key.store';
import { hashApiKey } from './api-key';

const MAX_CACHED_KEYS = 10_000;

/**
 * Resolves keys through a short in-process cache so that polling clients do not cost a database
 * round trip per request. Revocation therefore propagates within AUTH_CACHE_TTL_MS on every
 * instance. Unknown keys are cached too (same TTL) so that a flood of bad keys stays off the
 * database; the cache is keyed by the key's hash, never the key.
 */
@Injectable()
export class ApiKeyAuthenticator {
  private readonly cache: TtlCache<ApiKeyPrincipal | null>;

  constructor(
    private readonly store: ApiKeyStore,
    @Inject(GatewayConfig) config: GatewayConfig,
  ) {
    this.cache = new TtlCache({ ttlMs: config.AUTH_CACHE_TTL_MS, maxEntries: MAX_CACHED_KEYS });
  }

  authenticate(key: string): Promise<ApiKeyPrincipal | null> {
    return this.cache.getOrLoad(hashApiKey(key), () => this.store.resolve(key));
  }
}
