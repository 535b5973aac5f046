import { SystemClock } from '@swapgw/runtime';
import { generateApiKey } from './api-key';
import { ApiKeyAuthenticator } from './api-key.authenticator';
import type { ApiKeyPrincipal, ApiKeyRepository } from './api-key.repository';
import type { GatewayConfig } from '../config/gateway.config';

/** The key table as the store answers it, counting the lookups that would reach PostgreSQL. */
class CountingStore implements Pick<ApiKeyRepository, 'resolve'> {
  lookups = new Map<string, number>();
  constructor(private readonly keys: Map<string, ApiKeyPrincipal>) {}
  async resolve(key: string): Promise<ApiKeyPrincipal | null> {
    this.lookups.set(key, (this.lookups.get(key) ?? 0) + 1);
    return this.keys.get(key) ?? null;
  }
}

const authenticatorOf = (store: CountingStore, ttlMs = 60_000) =>
  new ApiKeyAuthenticator(
    store as unknown as ApiKeyRepository,
    { AUTH_CACHE_TTL_MS: ttlMs } as GatewayConfig,
    new SystemClock(),
  );

describe('ApiKeyAuthenticator', () => {
  it('never reads a valid key again within its TTL, however many unknown keys flood in', async () => {
    const valid = generateApiKey().key;
    const store = new CountingStore(
      new Map([[valid, { owner: 'alice', apiKeyId: 'k1' } as ApiKeyPrincipal]]),
    );
    const auth = authenticatorOf(store);
    expect(await auth.authenticate(valid)).toMatchObject({ owner: 'alice' });
    for (let i = 0; i < 20_000; i += 1) {
      expect(await auth.authenticate(generateApiKey().key)).toBeNull();
      if (i % 1000 === 0) expect(await auth.authenticate(valid)).toMatchObject({ owner: 'alice' });
    }
    expect(store.lookups.get(valid)).toBe(1);
    expect(auth.cached(valid)).toMatchObject({ apiKeyId: 'k1' });
  });

  it('keeps unknown keys off the database for the TTL, shares concurrent first lookups, and tells what it knows synchronously', async () => {
    const store = new CountingStore(new Map());
    const auth = authenticatorOf(store);
    const unknown = generateApiKey().key;
    expect(auth.cached(unknown)).toBeUndefined();
    expect(await Promise.all([auth.authenticate(unknown), auth.authenticate(unknown)])).toEqual([null, null]);
    expect(await auth.authenticate(unknown)).toBeNull();
    expect(store.lookups.get(unknown)).toBe(1);
    expect(auth.cached(unknown)).toBeNull();
  });

  it('asks the database every time with a TTL of 0 (cache off)', async () => {
    const valid = generateApiKey().key;
    const store = new CountingStore(
      new Map([[valid, { owner: 'alice', apiKeyId: 'k1' } as ApiKeyPrincipal]]),
    );
    const auth = authenticatorOf(store, 0);
    await auth.authenticate(valid);
    await auth.authenticate(valid);
    expect(store.lookups.get(valid)).toBe(2);
    expect(auth.cached(valid)).toBeUndefined();
  });
});
