import { Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import {
  CatalogMessageTypes,
  ErrorCodes,
  ListChainsRequest,
  ListChainsResult,
  ListPairsRequest,
  ListPairsResult,
  ListTokensRequest,
  ListTokensResult,
  Topics,
} from '@swapgw/contracts';
import { Clock, TtlCache } from '@swapgw/runtime';
import { GatewayConfig } from '../config/gateway.config';
import { ServiceClient } from '../messaging/service-client';
import { ListPairsQuery } from './dto/list-pairs.query';
import { ListTokensQuery } from './dto/list-tokens.query';

/** Distinct queries kept per instance (each answer is one page: at most a few hundred tokens). */
const MAX_CACHED_QUERIES = 1_000;

/**
 * Catalog reads as request-reply calls to quote-service, which owns chains, tokens and pairs
 * (unordered: spread over the topic's partitions, answered in parallel), answered from a per-instance
 * cache for CATALOG_CACHE_TTL_MS, with one call for concurrent identical reads; for
 * CATALOG_CACHE_STALE_MS after that, the expired answer is served while one reload runs behind it
 * (a busy or restarting quote-service costs catalog reads nothing). Its codes (INVALID_CURSOR,
 * UNKNOWN_CHAIN, DISCOVERY_UPSTREAM_UNAVAILABLE) pass through and are never cached; a catalog that
 * does not answer in time, with nothing to serve, is the discovery upstream being unavailable: 502,
 * as the spec lists. Only fresh answers go to the edge of cached reads (`freshUntil`).
 */
@Injectable()
export class CatalogService implements OnApplicationBootstrap {
  private readonly cache: TtlCache<unknown>;
  /** When each loaded answer stops being fresh (answers are objects parsed from a reply, one per load). */
  private readonly freshUntilOf = new WeakMap<object, number>();

  constructor(
    private readonly services: ServiceClient,
    @Inject(GatewayConfig) private readonly config: GatewayConfig,
    private readonly clock: Clock,
  ) {
    this.cache = new TtlCache({
      ttlMs: config.CATALOG_CACHE_TTL_MS,
      staleMs: config.CATALOG_CACHE_STALE_MS,
      maxEntries: MAX_CACHED_QUERIES,
      clock,
    });
  }

  /**
   * Asks for the chains once at start, not waited for: a flood that arrives with the first clients
   * finds them in the cache (served stale past the TTL), not behind its own quotes.
   */
  onApplicationBootstrap(): void {
    this.chains().catch(() => undefined);
  }

  /** Until when `answer` (as returned by this service) is served from the cache; undefined when it is not cached. */
  freshUntil(answer: unknown): number | undefined {
    return typeof answer === 'object' && answer !== null ? this.freshUntilOf.get(answer) : undefined;
  }

  chains(): Promise<ListChainsResult> {
    const request: ListChainsRequest = {};
    return this.read(CatalogMessageTypes.listChains, request);
  }

  tokens(query: ListTokensQuery): Promise<ListTokensResult> {
    const request: ListTokensRequest = { ...query };
    return this.read(CatalogMessageTypes.listTokens, request);
  }

  pairs(query: ListPairsQuery): Promise<ListPairsResult> {
    const request: ListPairsRequest = { ...query };
    return this.read(CatalogMessageTypes.listPairs, request);
  }

  private read<T>(type: string, request: object): Promise<T> {
    return this.cache.getOrLoad(cacheKeyOf(type, request), async () => {
      const answer = await this.services.unordered<object>(Topics.catalogRequests, type, request, {
        unavailableAs: ErrorCodes.DISCOVERY_UPSTREAM_UNAVAILABLE,
      });
      if (this.config.CATALOG_CACHE_TTL_MS > 0)
        this.freshUntilOf.set(answer, this.clock.nowMs() + this.config.CATALOG_CACHE_TTL_MS);
      return answer;
    }) as Promise<T>;
  }
}

/** The same query whatever the order of its parameters; absent and undefined parameters are alike. */
export function cacheKeyOf(type: string, request: object): string {
  const entries = Object.entries(request)
    .filter(([, value]) => value !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `${type}?${JSON.stringify(entries)}`;
}
