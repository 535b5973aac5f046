import { Logger, OnApplicationBootstrap } from '@nestjs/common';
import { ChainRegistry } from '@swapgw/chains';
import { THORCHAIN_POOL_AVAILABLE, type ThornodePool } from '@swapgw/chains/bitcoin-bridge';
import { CodedError, ErrorCodes } from '@swapgw/contracts';
import { Clock } from '@swapgw/runtime';
import { EntityManager } from 'typeorm';
import { PairToken, SupportPolicy } from './support-policy';
import { assetKeyOf, DiscoveredToken, TokenListSource } from './token-sources';
import { CatalogPairKey, CatalogPairUpsert, CatalogRepository } from './catalog.repository';

export interface CatalogSyncOptions {
  /** Remote sources are re-read when their last success is older than this. */
  refreshMs: number;
  /** A failing source is retried by listing requests at most this often. */
  retryIntervalMs: number;
}

/** THORNode's pools (GET /thorchain/pools: ThornodeClient), read when THORNODE_URL is set. */
export interface ThorchainPoolSource {
  pools(signal: AbortSignal): Promise<ThornodePool[]>;
}

/** The name the pools go by in the sources' status (debug output). */
const THORCHAIN_POOLS = 'thorchain-pools';

interface SourceState {
  lastAttemptAtMs: number;
  lastSuccessAtMs: number | null;
  error: string | null;
}

/**
 * Seeds and refreshes the catalog: chains from the registry, tokens from every discovery source
 * (idempotent upsert keyed by chain + asset), supported flags from the SupportPolicy, and pairs.
 * Listings call `ensureAvailable` first: a source that has never loaded makes them 502.
 * THORNode's pools (when THORNODE_URL is set) are read and refreshed like a remote source, but never
 * make a listing fail: until THORNode answers once, THORChain stays listed for every pair it names
 * (the quote decides), and a later failure keeps the last pools.
 */
export class CatalogSync implements OnApplicationBootstrap {
  private readonly logger = new Logger(CatalogSync.name);
  private readonly state = new Map<string, SourceState>();
  private inFlight: Promise<void> | null = null;

  constructor(
    private readonly catalog: CatalogRepository,
    private readonly registry: ChainRegistry,
    private readonly sources: TokenListSource[],
    private readonly policy: SupportPolicy,
    private readonly thorchainPools: ThorchainPoolSource | undefined,
    private readonly options: CatalogSyncOptions,
    private readonly clock: Clock,
  ) {}

  /** The catalog is seeded before the app serves (the Kafka consumer starts after bootstrap). */
  onApplicationBootstrap(): Promise<void> {
    return this.seed();
  }

  /** Full seed at start: never throws for a failing source (listings report it as 502). */
  async seed(): Promise<void> {
    await this.upsertChains();
    await this.syncSources(this.sources, this.thorchainPools !== undefined);
  }

  /**
   * Before a listing: re-reads sources that never loaded (at most every retryIntervalMs) or remote
   * ones that are stale; throws DISCOVERY_UPSTREAM_UNAVAILABLE while any source has never loaded.
   * A remote source that loaded once and fails later keeps serving its last tokens.
   */
  async ensureAvailable(): Promise<void> {
    const due = this.sources.filter((source) => this.isDue(source.name, source.remote));
    const poolsDue = this.thorchainPools !== undefined && this.isDue(THORCHAIN_POOLS, true);
    if (due.length > 0 || poolsDue) await this.syncSources(due, poolsDue);
    const missing = this.sources.filter((s) => (this.state.get(s.name)?.lastSuccessAtMs ?? null) === null);
    if (missing.length > 0) {
      throw new CodedError(
        ErrorCodes.DISCOVERY_UPSTREAM_UNAVAILABLE,
        'The token discovery upstream is unavailable',
        {
          sources: missing.map((s) => ({
            name: s.name,
            error: this.state.get(s.name)?.error ?? 'not loaded yet',
          })),
        },
      );
    }
  }

  /** Per-source status for debug output (THORNode's pools among them when read). */
  sourceStatus(): Record<string, unknown>[] {
    const names = [
      ...this.sources.map((s) => ({ name: s.name, remote: s.remote })),
      ...(this.thorchainPools ? [{ name: THORCHAIN_POOLS, remote: true }] : []),
    ];
    return names.map((s) => ({ ...s, ...this.state.get(s.name) }));
  }

  /** Never read, failed and retryable, or remote and older than refreshMs (and retryable). */
  private isDue(name: string, remote: boolean): boolean {
    const state = this.state.get(name);
    if (!state) return true;
    const now = this.clock.nowMs();
    const retryable = now - state.lastAttemptAtMs >= this.options.retryIntervalMs;
    if (state.lastSuccessAtMs === null) return retryable;
    return remote && now - state.lastSuccessAtMs >= this.options.refreshMs && retryable;
  }

  private async syncSources(sources: TokenListSource[], readPools: boolean): Promise<void> {
    // Concurrent listings share one sync instead of each hitting the upstream.
    if (this.inFlight) return this.inFlight;
    this.inFlight = this.runSync(sources, readPools).finally(() => (this.inFlight = null));
    return this.inFlight;
  }

  private async runSync(sources: TokenListSource[], readPools: boolean): Promise<void> {
    let changed = readPools && (await this.readThorchainPools());
    for (const source of sources) {
      const attemptAtMs = this.clock.nowMs();
      const previous = this.state.get(source.name);
      try {
        const tokens = await source.load(this.registry, AbortSignal.timeout(30_000));
        await this.catalog.transaction(async (manager) => {
          await this.upsertTokens(manager, source.name, tokens);
          await this.catalog.recordSource(
            manager,
            source.name,
            'ok',
            tokens.length,
            attemptAtMs,
            attemptAtMs,
            null,
          );
        });
        this.state.set(source.name, {
          lastAttemptAtMs: attemptAtMs,
          lastSuccessAtMs: attemptAtMs,
          error: null,
        });
        this.logger.log({ msg: 'token source synced', source: source.name, tokens: tokens.length });
        changed = true;
      } catch (error) {
        if (error instanceof CodedError) throw error;
        const message = (error as Error).message ?? String(error);
        const lastSuccessAtMs = previous?.lastSuccessAtMs ?? null;
        this.state.set(source.name, { lastAttemptAtMs: attemptAtMs, lastSuccessAtMs, error: message });
        await this.catalog
          .recordSource(undefined, source.name, 'failed', 0, attemptAtMs, lastSuccessAtMs, message)
          .catch(() => undefined);
        this.logger.warn({ msg: 'token source failed', source: source.name, error: message });
      }
    }
    if (changed) await this.applySupportAndPairs();
  }

  /**
   * Reads THORNode's pools into the policy; answers whether what THORChain swaps changed. A failure
   * is logged and keeps what the policy had: no pools ever (THORChain listed for every pair it
   * names, the quote deciding) or the last ones read.
   */
  private async readThorchainPools(): Promise<boolean> {
    if (!this.thorchainPools) return false;
    const attemptAtMs = this.clock.nowMs();
    const previous = this.state.get(THORCHAIN_POOLS);
    try {
      const pools = await this.thorchainPools.pools(AbortSignal.timeout(30_000));
      this.state.set(THORCHAIN_POOLS, {
        lastAttemptAtMs: attemptAtMs,
        lastSuccessAtMs: attemptAtMs,
        error: null,
      });
      const changed = this.policy.useThorchainPools(pools);
      this.logger.log({
        msg: 'THORChain pools read',
        pools: pools.length,
        available: pools.filter((p) => p.status === THORCHAIN_POOL_AVAILABLE).length,
        changed,
      });
      return changed;
    } catch (error) {
      const message = (error as Error).message ?? String(error);
      const lastSuccessAtMs = previous?.lastSuccessAtMs ?? null;
      this.state.set(THORCHAIN_POOLS, { lastAttemptAtMs: attemptAtMs, lastSuccessAtMs, error: message });
      this.logger.warn({
        msg:
          lastSuccessAtMs === null
            ? 'THORChain pools unavailable: listing THORChain for every pair it names until THORNode answers (the quote decides)'
            : 'THORChain pools unavailable: keeping the last pools read',
        error: message,
      });
      return false;
    }
  }

  private async upsertChains(): Promise<void> {
    const now = this.clock.nowMs();
    await this.catalog.transaction(async (manager) => {
      for (const [position, chain] of this.registry.list().entries()) {
        await this.catalog.upsertChain(
          manager,
          {
            id: chain.id,
            name: chain.name,
            family: chain.family,
            network: chain.network,
            evmChainId: chain.evmChainId ?? null,
            caip2: chain.caip2,
            nativeSymbol: chain.nativeSymbol,
            signingSurface: this.registry.hasSigningSurface(chain.id),
          },
          position,
          now,
        );
      }
    });
  }

  /** The source's tokens on known chains, one per chain and asset (the first listed wins). */
  private async upsertTokens(
    manager: EntityManager,
    source: string,
    tokens: DiscoveredToken[],
  ): Promise<void> {
    const known = new Set(this.registry.list().map((c) => c.id));
    const unique = new Map<string, DiscoveredToken & { assetKey: string }>();
    for (const token of tokens) {
      if (!known.has(token.chain)) continue;
      const assetKey = assetKeyOf(token);
      const key = `${token.chain}|${assetKey}`;
      if (!unique.has(key)) unique.set(key, { ...token, assetKey });
    }
    await this.catalog.upsertTokens(manager, source, [...unique.values()], this.clock.nowMs());
  }

  /**
   * Support depends on configuration (RPC URLs, LI.FI) and THORChain's pools, so it is recomputed on
   * every sync, per chain. Pairs are generated from tokens and upserted; a cross-family pair no
   * provider covers any more (THORChain's pool gone) is deleted (keyset cursors outlive their row).
   */
  private async applySupportAndPairs(): Promise<void> {
    const now = this.clock.nowMs();
    await this.catalog.transaction(async (manager) => {
      for (const chain of this.registry.list()) {
        const providers = this.policy.tokenProviders(chain.id);
        await this.catalog.setTokenProviders(manager, chain.id, providers);
        if (!this.policy.supportVariesByToken(chain.id)) continue;
        // A few tokens (solana-devnet): per symbol, since only the bridged one rides the bridge.
        for (const symbol of await this.catalog.symbolsOf(manager, chain.id)) {
          await this.catalog.setTokenProviders(
            manager,
            chain.id,
            this.policy.tokenProviders(chain.id, symbol),
            symbol,
          );
        }
      }
      const { pairs, uncovered } = await this.candidatePairs(manager);
      await this.catalog.upsertPairs(manager, pairs, now);
      await this.catalog.deletePairs(manager, uncovered);
    });
  }

  /**
   * Pairs worth listing: on devnet chains every token pair (same chain and across chains); on real
   * networks the core assets (rank < 1000), since any-to-any over a 400-token list is noise.
   * Native ↔ wrapped on one chain is a wrap, not a swap, and is left out. `uncovered`: the
   * cross-family pairs no provider covers, not listed.
   */
  private async candidatePairs(manager: EntityManager): Promise<{
    pairs: CatalogPairUpsert[];
    uncovered: CatalogPairKey[];
  }> {
    const rows = await this.catalog.pairCandidateTokens(
      manager,
      this.registry
        .list()
        .filter((c) => c.devnet)
        .map((c) => c.id),
    );
    const byChain = new Map<string, typeof rows>();
    for (const row of rows) byChain.set(row.chain, [...(byChain.get(row.chain) ?? []), row]);
    const pairs: CatalogPairUpsert[] = [];
    const uncovered: CatalogPairKey[] = [];
    for (const [fromChain, fromTokens] of byChain) {
      for (const [toChain, toTokens] of byChain) {
        const sameFamily = this.registry.find(fromChain)?.family === this.registry.find(toChain)?.family;
        // A devnet (testnet) chain and a real network never trade with each other: no pair to list.
        if (this.registry.find(fromChain)?.network !== this.registry.find(toChain)?.network) continue;
        for (const a of fromTokens) {
          for (const b of toTokens) {
            if (fromChain === toChain && (a.symbol === b.symbol || isWrapPair(a.symbol, b.symbol))) continue;
            const providers = this.policy.pairProviders(fromChain, toChain, tokenOf(a), tokenOf(b));
            const key = { fromChain, toChain, tokenIn: a.symbol, tokenOut: b.symbol };
            // Cross-family pairs (EVM ↔ Solana, BTC ↔ EVM) are listed only where a provider covers them.
            if (!sameFamily && providers.length === 0) uncovered.push(key);
            else pairs.push({ ...key, providers });
          }
        }
      }
    }
    return { pairs, uncovered };
  }
}

function tokenOf(row: { symbol: string; address: string | null }): PairToken {
  return { symbol: row.symbol, address: row.address };
}

function isWrapPair(a: string, b: string): boolean {
  const pair = [a.toUpperCase(), b.toUpperCase()].sort().join('/');
  return pair === 'ETH/WETH' || pair === 'SOL/WSOL';
}
