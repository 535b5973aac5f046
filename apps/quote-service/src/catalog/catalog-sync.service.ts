import { Logger, OnApplicationBootstrap } from '@nestjs/common';
import { ChainRegistry } from '@swapgw/chains';
import { CodedError, ErrorCodes } from '@swapgw/contracts';
import { Clock } from '@swapgw/runtime';
import { DataSource, EntityManager } from 'typeorm';
import { SupportPolicy } from './support-policy';
import { assetKeyOf, DiscoveredToken, TokenListSource } from './token-sources';
import { quoteTables } from '../database/quote-tables';

const UPSERT_CHUNK = 500;

export interface CatalogSyncOptions {
  /** Remote sources are re-read when their last success is older than this. */
  refreshMs: number;
  /** A failing source is retried by listing requests at most this often. */
  retryIntervalMs: number;
}

interface SourceState {
  lastAttemptAtMs: number;
  lastSuccessAtMs: number | null;
  error: string | null;
}

/**
 * Seeds and refreshes the catalog: chains from the registry, tokens from every discovery source
 * (idempotent upsert keyed by chain + asset), supported flags from the SupportPolicy, and pairs.
 * Listings call `ensureAvailable` first: a source that has never loaded makes them 502.
 */
export class CatalogSync implements OnApplicationBootstrap {
  private readonly logger = new Logger(CatalogSync.name);
  private readonly state = new Map<string, SourceState>();
  private inFlight: Promise<void> | null = null;

  /** Schema-qualified table names of this DataSource (see quoteTables). */
  private get t() {
    return quoteTables(this.dataSource);
  }

  constructor(
    private readonly dataSource: DataSource,
    private readonly registry: ChainRegistry,
    private readonly sources: TokenListSource[],
    private readonly policy: SupportPolicy,
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
    await this.syncSources(this.sources);
  }

  /**
   * Before a listing: re-reads sources that never loaded (at most every retryIntervalMs) or remote
   * ones that are stale; throws DISCOVERY_UPSTREAM_UNAVAILABLE while any source has never loaded.
   * A remote source that loaded once and fails later keeps serving its last tokens.
   */
  async ensureAvailable(): Promise<void> {
    const now = this.clock.nowMs();
    const due = this.sources.filter((source) => {
      const state = this.state.get(source.name);
      if (!state) return true;
      const retryable = now - state.lastAttemptAtMs >= this.options.retryIntervalMs;
      if (state.lastSuccessAtMs === null) return retryable;
      return source.remote && now - state.lastSuccessAtMs >= this.options.refreshMs && retryable;
    });
    if (due.length > 0) await this.syncSources(due);
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

  /** Per-source status for debug output. */
  sourceStatus(): Record<string, unknown>[] {
    return this.sources.map((s) => ({ name: s.name, remote: s.remote, ...this.state.get(s.name) }));
  }

  private async syncSources(sources: TokenListSource[]): Promise<void> {
    // Concurrent listings share one sync instead of each hitting the upstream.
    if (this.inFlight) return this.inFlight;
    this.inFlight = this.runSync(sources).finally(() => (this.inFlight = null));
    return this.inFlight;
  }

  private async runSync(sources: TokenListSource[]): Promise<void> {
    let changed = false;
    for (const source of sources) {
      const attemptAtMs = this.clock.nowMs();
      const previous = this.state.get(source.name);
      try {
        const tokens = await source.load(this.registry, AbortSignal.timeout(30_000));
        await this.dataSource.transaction(async (manager) => {
          await this.upsertTokens(manager, source.name, tokens);
          await this.recordSource(manager, source.name, 'ok', tokens.length, attemptAtMs, attemptAtMs, null);
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
        await this.recordSource(
          this.dataSource.manager,
          source.name,
          'failed',
          0,
          attemptAtMs,
          lastSuccessAtMs,
          message,
        ).catch(() => undefined);
        this.logger.warn({ msg: 'token source failed', source: source.name, error: message });
      }
    }
    if (changed) await this.applySupportAndPairs();
  }

  private async upsertChains(): Promise<void> {
    const now = this.clock.nowMs();
    await this.dataSource.transaction(async (manager) => {
      for (const [position, chain] of this.registry.list().entries()) {
        await manager.query(
          `INSERT INTO ${this.t.chains} ("id", "name", "family", "network", "evm_chain_id", "caip2", "native_symbol", "signing_surface", "position", "updated_at_ms")
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
           ON CONFLICT ("id") DO UPDATE SET "name" = EXCLUDED."name", "family" = EXCLUDED."family", "network" = EXCLUDED."network",
             "evm_chain_id" = EXCLUDED."evm_chain_id", "caip2" = EXCLUDED."caip2", "native_symbol" = EXCLUDED."native_symbol",
             "signing_surface" = EXCLUDED."signing_surface", "position" = EXCLUDED."position", "updated_at_ms" = EXCLUDED."updated_at_ms"`,
          [
            chain.id,
            chain.name,
            chain.family,
            chain.network,
            chain.evmChainId ?? null,
            chain.caip2,
            chain.nativeSymbol,
            this.registry.hasSigningSurface(chain.id),
            position,
            now,
          ],
        );
      }
    });
  }

  /**
   * One statement per chunk. A later source refines an earlier one: a logo or a better rank is
   * kept, never lost to a source that lacks it.
   */
  private async upsertTokens(
    manager: EntityManager,
    source: string,
    tokens: DiscoveredToken[],
  ): Promise<void> {
    const known = new Set(this.registry.list().map((c) => c.id));
    const unique = new Map<string, DiscoveredToken>();
    for (const token of tokens) {
      if (!known.has(token.chain)) continue;
      const key = `${token.chain}|${assetKeyOf(token)}`;
      if (!unique.has(key)) unique.set(key, token);
    }
    const rows = [...unique.values()];
    const now = this.clock.nowMs();
    for (let i = 0; i < rows.length; i += UPSERT_CHUNK) {
      const chunk = rows.slice(i, i + UPSERT_CHUNK);
      const params: unknown[] = [];
      const values = chunk.map((t) => {
        const base = params.length;
        params.push(
          t.chain,
          t.symbol,
          t.name,
          t.decimals,
          t.address,
          t.mint,
          assetKeyOf(t),
          t.logoUrl,
          t.rank,
          t.bridgedChains,
          source,
          now,
        );
        return `(${Array.from({ length: 12 }, (_, j) => `$${base + j + 1}`).join(', ')}, false, '[]'::jsonb)`;
      });
      await manager.query(
        `INSERT INTO ${this.t.tokens} ("chain", "symbol", "name", "decimals", "address", "mint", "asset_key", "logo_url", "rank", "bridged_chains", "source", "updated_at_ms", "supported", "providers")
         VALUES ${values.join(', ')}
         ON CONFLICT ("chain", "asset_key") DO UPDATE SET
           "symbol" = EXCLUDED."symbol", "name" = EXCLUDED."name", "decimals" = EXCLUDED."decimals",
           "logo_url" = COALESCE(EXCLUDED."logo_url", "tokens"."logo_url"),
           "rank" = LEAST(EXCLUDED."rank", "tokens"."rank"),
           "bridged_chains" = GREATEST(EXCLUDED."bridged_chains", "tokens"."bridged_chains"),
           "updated_at_ms" = EXCLUDED."updated_at_ms"`,
        params,
      );
    }
  }

  private async recordSource(
    manager: EntityManager,
    name: string,
    status: 'ok' | 'failed',
    tokenCount: number,
    attemptAtMs: number,
    successAtMs: number | null,
    error: string | null,
  ): Promise<void> {
    await manager.query(
      `INSERT INTO ${this.t.token_sources} ("name", "status", "token_count", "last_success_at_ms", "last_attempt_at_ms", "last_error")
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT ("name") DO UPDATE SET "status" = EXCLUDED."status",
         "token_count" = CASE WHEN EXCLUDED."status" = 'ok' THEN EXCLUDED."token_count" ELSE "token_sources"."token_count" END,
         "last_success_at_ms" = COALESCE(EXCLUDED."last_success_at_ms", "token_sources"."last_success_at_ms"),
         "last_attempt_at_ms" = EXCLUDED."last_attempt_at_ms", "last_error" = EXCLUDED."last_error"`,
      [name, status, tokenCount, successAtMs, attemptAtMs, error],
    );
  }

  /**
   * Support depends on configuration (RPC URLs, LI.FI), so it is recomputed on every sync, per
   * chain. Pairs are generated from tokens and upserted (never deleted: cursors stay valid).
   */
  private async applySupportAndPairs(): Promise<void> {
    const now = this.clock.nowMs();
    await this.dataSource.transaction(async (manager) => {
      for (const chain of this.registry.list()) {
        const providers = this.policy.tokenProviders(chain.id);
        await manager.query(
          `UPDATE ${this.t.tokens} SET "providers" = $2::jsonb, "supported" = $3 WHERE "chain" = $1`,
          [chain.id, JSON.stringify(providers), providers.length > 0],
        );
        if (!this.policy.supportVariesByToken(chain.id)) continue;
        // A few tokens (solana-devnet): per symbol, since only the bridged one rides the bridge.
        const symbols: { symbol: string }[] = await manager.query(
          `SELECT DISTINCT "symbol" FROM ${this.t.tokens} WHERE "chain" = $1`,
          [chain.id],
        );
        for (const { symbol } of symbols) {
          const ofToken = this.policy.tokenProviders(chain.id, symbol);
          await manager.query(
            `UPDATE ${this.t.tokens} SET "providers" = $3::jsonb, "supported" = $4 WHERE "chain" = $1 AND "symbol" = $2`,
            [chain.id, symbol, JSON.stringify(ofToken), ofToken.length > 0],
          );
        }
      }
      const pairs = await this.candidatePairs(manager);
      for (let i = 0; i < pairs.length; i += UPSERT_CHUNK) {
        const chunk = pairs.slice(i, i + UPSERT_CHUNK);
        const params: unknown[] = [];
        const values = chunk.map((p) => {
          const base = params.length;
          params.push(
            p.fromChain,
            p.toChain,
            p.tokenIn,
            p.tokenOut,
            JSON.stringify(p.providers),
            p.providers.length > 0,
            now,
          );
          return `($${base + 1}, $${base + 2}, $${base + 3}, $${base + 4}, $${base + 5}::jsonb, $${base + 6}, $${base + 7})`;
        });
        await manager.query(
          `INSERT INTO ${this.t.pairs} ("from_chain", "to_chain", "token_in", "token_out", "providers", "supported", "updated_at_ms")
           VALUES ${values.join(', ')}
           ON CONFLICT ("from_chain", "to_chain", "token_in", "token_out") DO UPDATE SET
             "providers" = EXCLUDED."providers", "supported" = EXCLUDED."supported", "updated_at_ms" = EXCLUDED."updated_at_ms"`,
          params,
        );
      }
    });
  }

  /**
   * Pairs worth listing: on devnet chains every token pair (same chain and across chains); on real
   * networks the core assets (rank < 1000), since any-to-any over a 400-token list is noise.
   * Native ↔ wrapped on one chain is a wrap, not a swap, and is left out.
   */
  private async candidatePairs(
    manager: EntityManager,
  ): Promise<
    { fromChain: string; toChain: string; tokenIn: string; tokenOut: string; providers: string[] }[]
  > {
    const rows: { chain: string; symbol: string; address: string | null; mint: string | null }[] =
      await manager.query(
        `SELECT DISTINCT ON ("chain", "symbol") "chain", "symbol", "address", "mint" FROM ${this.t.tokens}
       WHERE "rank" < 1000 OR "chain" = ANY($1) ORDER BY "chain", "symbol", "rank", "id"`,
        [
          this.registry
            .list()
            .filter((c) => c.devnet)
            .map((c) => c.id),
        ],
      );
    const byChain = new Map<string, typeof rows>();
    for (const row of rows) byChain.set(row.chain, [...(byChain.get(row.chain) ?? []), row]);
    const pairs: {
      fromChain: string;
      toChain: string;
      tokenIn: string;
      tokenOut: string;
      providers: string[];
    }[] = [];
    for (const [fromChain, fromTokens] of byChain) {
      for (const [toChain, toTokens] of byChain) {
        const sameFamily = this.registry.find(fromChain)?.family === this.registry.find(toChain)?.family;
        // A devnet (testnet) chain and a real network never trade with each other: no pair to list.
        if (this.registry.find(fromChain)?.network !== this.registry.find(toChain)?.network) continue;
        for (const a of fromTokens) {
          for (const b of toTokens) {
            if (fromChain === toChain && (a.symbol === b.symbol || isWrapPair(a.symbol, b.symbol))) continue;
            const providers = this.policy.pairProviders(fromChain, toChain, a.symbol, b.symbol);
            // Cross-family pairs (EVM ↔ Solana) are listed only where a provider covers them.
            if (!sameFamily && providers.length === 0) continue;
            pairs.push({ fromChain, toChain, tokenIn: a.symbol, tokenOut: b.symbol, providers });
          }
        }
      }
    }
    return pairs;
  }
}

function isWrapPair(a: string, b: string): boolean {
  const pair = [a.toUpperCase(), b.toUpperCase()].sort().join('/');
  return pair === 'ETH/WETH' || pair === 'SOL/WSOL';
}
