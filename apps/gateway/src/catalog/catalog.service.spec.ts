import { CodedError, ErrorCodes } from '@swapgw/contracts';
import { loadConfig, ManualClock, SystemClock } from '@swapgw/runtime';
import { GatewayConfig } from '../config/gateway.config';
import type { ServiceClient } from '../messaging/service-client';
import { CatalogService } from './catalog.service';
import type { ListTokensQuery } from './dto/list-tokens.query';

class FakeServices implements Pick<ServiceClient, 'unordered'> {
  calls: Array<{ type: string; payload: unknown }> = [];
  failNext = false;
  async unordered<T>(_topic: string, type: string, payload: unknown): Promise<T> {
    this.calls.push({ type, payload });
    if (this.failNext) {
      this.failNext = false;
      throw new CodedError(ErrorCodes.DISCOVERY_UPSTREAM_UNAVAILABLE, 'catalog away');
    }
    return { items: [`answer ${this.calls.length}`] } as T;
  }
}

const serviceOf = (services: FakeServices, env: Record<string, string> = {}, clock = new SystemClock()) =>
  new CatalogService(services as unknown as ServiceClient, loadConfig(GatewayConfig, env), clock);
const tokens = (query: Partial<ListTokensQuery>) => query as ListTokensQuery;

describe('CatalogService', () => {
  it('answers the same query from its cache, whatever the order of the parameters, and asks again for another query', async () => {
    const services = new FakeServices();
    const catalog = serviceOf(services);
    const first = await catalog.tokens(tokens({ chainRef: 'devnet-a', sort: 'asc' }));
    expect(await catalog.tokens(tokens({ sort: 'asc', chainRef: 'devnet-a', q: undefined }))).toEqual(first);
    await catalog.tokens(tokens({ chainRef: 'devnet-b', sort: 'asc' }));
    await catalog.chains();
    await catalog.chains();
    expect(services.calls.map((c) => c.type)).toEqual([
      'catalog.tokens.list',
      'catalog.tokens.list',
      'catalog.chains.list',
    ]);
  });

  it('sends one call for concurrent identical reads', async () => {
    const services = new FakeServices();
    const catalog = serviceOf(services);
    const answers = await Promise.all(Array.from({ length: 5 }, () => catalog.chains()));
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
    expect(services.calls).toHaveLength(1);
  });

  it('never caches an error: the next read asks again', async () => {
    const services = new FakeServices();
    const catalog = serviceOf(services);
    services.failNext = true;
    await expect(catalog.chains()).rejects.toMatchObject({ code: 'DISCOVERY_UPSTREAM_UNAVAILABLE' });
    await expect(catalog.chains()).resolves.toEqual({ items: ['answer 2'] });
  });

  it('asks every time with CATALOG_CACHE_TTL_MS=0', async () => {
    const services = new FakeServices();
    const catalog = serviceOf(services, { CATALOG_CACHE_TTL_MS: '0' });
    await catalog.chains();
    await catalog.chains();
    expect(services.calls).toHaveLength(2);
  });

  it('serves an expired answer while quote-service does not answer, up to CATALOG_CACHE_STALE_MS; then 502', async () => {
    const services = new FakeServices();
    const clock = new ManualClock(1_000_000);
    const catalog = serviceOf(
      services,
      { CATALOG_CACHE_TTL_MS: '5000', CATALOG_CACHE_STALE_MS: '60000' },
      clock,
    );
    const first = await catalog.chains();
    expect(catalog.freshUntil(first)).toBe(1_005_000);

    clock.atMs += 30_000;
    services.failNext = true;
    // Expired and quote-service away: the last answer, at once; the reload behind it failed.
    expect(await catalog.chains()).toBe(first);
    await new Promise((resolve) => setImmediate(resolve));
    expect(services.calls).toHaveLength(2);
    // Not fresh: the edge of cached reads never keeps it.
    expect(catalog.freshUntil(first)! < clock.nowMs()).toBe(true);

    clock.atMs += 40_000; // 70 s after the load: past 5 s + 60 s
    services.failNext = true;
    await expect(catalog.chains()).rejects.toMatchObject({ code: 'DISCOVERY_UPSTREAM_UNAVAILABLE' });
  });

  it('serves the reloaded answer once quote-service answers again', async () => {
    const services = new FakeServices();
    const clock = new ManualClock(1_000_000);
    const catalog = serviceOf(services, {}, clock);
    await catalog.chains();
    clock.atMs += 6_000;
    expect(await catalog.chains()).toEqual({ items: ['answer 1'] });
    await new Promise((resolve) => setImmediate(resolve));
    expect(await catalog.chains()).toEqual({ items: ['answer 2'] });
    expect(services.calls).toHaveLength(2);
  });

  it('asks for the chains once at start, so that the first reads find them cached', async () => {
    const services = new FakeServices();
    const catalog = serviceOf(services);
    catalog.onApplicationBootstrap();
    expect(await catalog.chains()).toEqual({ items: ['answer 1'] });
    expect(services.calls.map((c) => c.type)).toEqual(['catalog.chains.list']);
  });

  it('starts even when quote-service does not answer its first ask', async () => {
    const services = new FakeServices();
    services.failNext = true;
    const catalog = serviceOf(services);
    catalog.onApplicationBootstrap();
    await new Promise((resolve) => setImmediate(resolve));
    expect(await catalog.chains()).toEqual({ items: ['answer 2'] });
  });
});
