import { Injectable } from '@nestjs/common';
import { ChainView, TokenSort } from '@swapgw/contracts';
import { DataSource, EntityManager } from 'typeorm';
import { quoteTables } from '../database/quote-tables';
import { DecodedCursor, SortKey } from './keyset-cursor';
import { DiscoveredToken } from './token-sources';

const UPSERT_CHUNK = 500;

export interface SortColumn {
  /** SQL expression over alias t. */
  expr: string;
  /** Cast of the cursor value when compared. */
  type: 'integer' | 'bigint' | 'text';
}

export /**
 * What each token sort ranks by. Every order is ascending on a tuple ending with the id, so keyset
 * pagination is a single row comparison and stays stable while tokens are added.
 *  - top: curated rank (natives and majors first, then the token list's own order);
 *  - marketcap: the lists carry no market cap; we rank by how many chains the token is bridged
 *    to (Uniswap list bridgeInfo), a proxy for large caps, then by rank;
 *  - trending: how many quotes named the token in this service, then by rank (pages may shift while
 *    counts change: it is a live signal);
 *  - asc: symbol alphabetically (case-insensitive), then chain.
 */
const TOKEN_SORT_COLUMNS: Record<TokenSort, SortColumn[]> = {
  top: [{ expr: 't."rank"', type: 'integer' }],
  marketcap: [
    { expr: '-t."bridged_chains"', type: 'integer' },
    { expr: 't."rank"', type: 'integer' },
  ],
  trending: [
    { expr: '-t."quote_count"', type: 'bigint' },
    { expr: 't."rank"', type: 'integer' },
  ],
  asc: [
    { expr: 'upper(t."symbol") COLLATE "C"', type: 'text' },
    { expr: 't."chain" COLLATE "C"', type: 'text' },
  ],
};

export const PAIR_SORT_COLUMNS: SortColumn[] = [
  { expr: 'p."from_chain" COLLATE "C"', type: 'text' },
  { expr: 'p."to_chain" COLLATE "C"', type: 'text' },
  { expr: 'p."token_in" COLLATE "C"', type: 'text' },
  { expr: 'p."token_out" COLLATE "C"', type: 'text' },
];

/** A token of the catalog, with its sort key columns (`sk0`, `sk1`...) when read for a page. */
export interface CatalogTokenRow {
  id: string;
  chain: string;
  symbol: string;
  name: string;
  decimals: number;
  address: string | null;
  mint: string | null;
  logo_url: string | null;
  rank: number;
  bridged_chains: number;
  quote_count: string;
  supported: boolean;
  providers: string[];
  source: string;
  [sortKey: `sk${number}`]: string | number;
}

export interface CatalogPairRow {
  id: string;
  from_chain: string;
  to_chain: string;
  token_in: string;
  token_out: string;
  providers: string[];
  supported: boolean;
  [sortKey: `sk${number}`]: string | number;
}

/** The columns quote resolution reads of a token. */
export interface ResolvedTokenRow {
  symbol: string;
  decimals: number;
  address: string | null;
  mint: string | null;
}

/** A chain of the catalog, as stored (GET /chains). */
export interface CatalogChainRow {
  id: string;
  name: string;
  family: ChainView['family'];
  network: ChainView['network'];
  evm_chain_id: number | null;
  caip2: string;
  native_symbol: string;
}

export interface CatalogChainUpsert {
  id: string;
  name: string;
  family: string;
  network: string;
  evmChainId: number | null;
  caip2: string;
  nativeSymbol: string;
  signingSurface: boolean;
}

export interface CatalogPairKey {
  fromChain: string;
  toChain: string;
  tokenIn: string;
  tokenOut: string;
}

export interface CatalogPairUpsert extends CatalogPairKey {
  providers: string[];
}

/**
 * Every statement on the catalog's tables (chains, tokens, pairs, token_sources), schema-qualified
 * (quoteTables): the sync's upserts, the listings' keyset pages, quote resolution's token reads
 * and the trending counts. Writes that belong together take the caller's transaction.
 */
@Injectable()
export class CatalogRepository {
  constructor(private readonly dataSource: DataSource) {}

  private get t() {
    return quoteTables(this.dataSource);
  }

  /** Runs `work` in one transaction. */
  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }

  listChains(): Promise<CatalogChainRow[]> {
    return this.dataSource.query(
      `SELECT "id", "name", "family", "network", "evm_chain_id", "caip2", "native_symbol" FROM ${this.t.chains} ORDER BY "position", "id"`,
    );
  }

  async hasChain(id: string): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(`SELECT 1 FROM ${this.t.chains} WHERE "id" = $1`, [
      id,
    ]);
    return rows.length > 0;
  }

  /** Up to `limit` tokens matching the filter in `sort` order, after the cursor's row. */
  tokenPage(
    filter: { chain?: string; search?: string; supportedOnly?: boolean; requireLogo?: boolean },
    sort: TokenSort,
    after: DecodedCursor | undefined,
    limit: number,
  ): Promise<CatalogTokenRow[]> {
    const columns = TOKEN_SORT_COLUMNS[sort];
    const { params, param } = positionalParams();
    const where: string[] = [];
    if (filter.chain) where.push(`t."chain" = ${param(filter.chain)}`);
    if (filter.search) {
      const pattern = param(`%${escapeLike(filter.search)}%`);
      where.push(`(t."symbol" ILIKE ${pattern} OR t."name" ILIKE ${pattern})`);
    }
    if (filter.supportedOnly) where.push(`t."supported"`);
    if (filter.requireLogo) where.push(`t."logo_url" IS NOT NULL`);
    if (after) where.push(keysetCondition(columns, 't."id"', after.sortKey, after.lastId, param));
    return this.dataSource.query(
      `SELECT t.*, ${columns.map((c, i) => `${c.expr} AS "sk${i}"`).join(', ')}
       FROM ${this.t.tokens} t ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
       ORDER BY ${columns.map((c) => c.expr).join(', ')}, t."id"
       LIMIT ${param(limit)}`,
      params,
    );
  }

  /** Up to `limit` pairs matching the filter (tokens upper-cased), after the cursor's row. */
  pairPage(
    filter: { chain?: string; tokenIn?: string; tokenOut?: string; supportedOnly?: boolean },
    after: DecodedCursor | undefined,
    limit: number,
  ): Promise<CatalogPairRow[]> {
    const { params, param } = positionalParams();
    const where: string[] = [];
    if (filter.chain) {
      const chain = param(filter.chain);
      where.push(`p."from_chain" = ${chain} AND p."to_chain" = ${chain}`);
    }
    if (filter.tokenIn) where.push(`upper(p."token_in") = ${param(filter.tokenIn)}`);
    if (filter.tokenOut) where.push(`upper(p."token_out") = ${param(filter.tokenOut)}`);
    if (filter.supportedOnly) where.push(`p."supported"`);
    if (after) where.push(keysetCondition(PAIR_SORT_COLUMNS, 'p."id"', after.sortKey, after.lastId, param));
    return this.dataSource.query(
      `SELECT p.*, ${PAIR_SORT_COLUMNS.map((c, i) => `${c.expr} AS "sk${i}"`).join(', ')}
       FROM ${this.t.pairs} p ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
       ORDER BY ${PAIR_SORT_COLUMNS.map((c) => c.expr).join(', ')}, p."id"
       LIMIT ${param(limit)}`,
      params,
    );
  }

  /** The best-ranked token of the chain with this symbol (case-insensitive). */
  async tokenBySymbol(chain: string, symbol: string): Promise<ResolvedTokenRow | undefined> {
    const rows: ResolvedTokenRow[] = await this.dataSource.query(
      `SELECT "symbol", "decimals", "address", "mint" FROM ${this.t.tokens} WHERE "chain" = $1 AND upper("symbol") = upper($2) ORDER BY "rank", "id" LIMIT 1`,
      [chain, symbol],
    );
    return rows[0];
  }

  async tokenByAssetKey(chain: string, assetKey: string): Promise<ResolvedTokenRow | undefined> {
    const rows: ResolvedTokenRow[] = await this.dataSource.query(
      `SELECT "symbol", "decimals", "address", "mint" FROM ${this.t.tokens} WHERE "chain" = $1 AND "asset_key" = $2`,
      [chain, assetKey],
    );
    return rows[0];
  }

  /** Adds quote counts to tokens (the trending sort); rows sorted by the caller, so locks come in one order. */
  async addQuoteCounts(rows: { chain: string; assetKey: string; count: number }[]): Promise<void> {
    await this.dataSource.query(
      `UPDATE ${this.t.tokens} t SET "quote_count" = t."quote_count" + v.n
       FROM unnest($1::text[], $2::text[], $3::bigint[]) AS v(chain, asset_key, n)
       WHERE t."chain" = v.chain AND t."asset_key" = v.asset_key`,
      [rows.map((r) => r.chain), rows.map((r) => r.assetKey), rows.map((r) => r.count)],
    );
  }

  async upsertChain(
    manager: EntityManager,
    chain: CatalogChainUpsert,
    position: number,
    nowMs: number,
  ): Promise<void> {
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
        chain.evmChainId,
        chain.caip2,
        chain.nativeSymbol,
        chain.signingSurface,
        position,
        nowMs,
      ],
    );
  }

  /**
   * Upserts tokens keyed by chain + asset, one statement per chunk. A later source refines an
   * earlier one: a logo or a better rank is kept, never lost to a source that lacks it.
   */
  async upsertTokens(
    manager: EntityManager,
    source: string,
    tokens: (DiscoveredToken & { assetKey: string })[],
    nowMs: number,
  ): Promise<void> {
    for (let i = 0; i < tokens.length; i += UPSERT_CHUNK) {
      const chunk = tokens.slice(i, i + UPSERT_CHUNK);
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
          t.assetKey,
          t.logoUrl,
          t.rank,
          t.bridgedChains,
          source,
          nowMs,
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

  /** A source's last attempt; the token count and last success are kept from before on a failure. */
  async recordSource(
    manager: EntityManager | undefined,
    name: string,
    status: 'ok' | 'failed',
    tokenCount: number,
    attemptAtMs: number,
    successAtMs: number | null,
    error: string | null,
  ): Promise<void> {
    await (manager ?? this.dataSource.manager).query(
      `INSERT INTO ${this.t.token_sources} ("name", "status", "token_count", "last_success_at_ms", "last_attempt_at_ms", "last_error")
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT ("name") DO UPDATE SET "status" = EXCLUDED."status",
         "token_count" = CASE WHEN EXCLUDED."status" = 'ok' THEN EXCLUDED."token_count" ELSE "token_sources"."token_count" END,
         "last_success_at_ms" = COALESCE(EXCLUDED."last_success_at_ms", "token_sources"."last_success_at_ms"),
         "last_attempt_at_ms" = EXCLUDED."last_attempt_at_ms", "last_error" = EXCLUDED."last_error"`,
      [name, status, tokenCount, successAtMs, attemptAtMs, error],
    );
  }

  /** Sets the providers (and supported flag) of the chain's tokens, or of one symbol of it. */
  async setTokenProviders(
    manager: EntityManager,
    chain: string,
    providers: string[],
    symbol?: string,
  ): Promise<void> {
    if (symbol === undefined) {
      await manager.query(
        `UPDATE ${this.t.tokens} SET "providers" = $2::jsonb, "supported" = $3 WHERE "chain" = $1`,
        [chain, JSON.stringify(providers), providers.length > 0],
      );
      return;
    }
    await manager.query(
      `UPDATE ${this.t.tokens} SET "providers" = $3::jsonb, "supported" = $4 WHERE "chain" = $1 AND "symbol" = $2`,
      [chain, symbol, JSON.stringify(providers), providers.length > 0],
    );
  }

  async symbolsOf(manager: EntityManager, chain: string): Promise<string[]> {
    const rows: { symbol: string }[] = await manager.query(
      `SELECT DISTINCT "symbol" FROM ${this.t.tokens} WHERE "chain" = $1`,
      [chain],
    );
    return rows.map((r) => r.symbol);
  }

  /** One token per chain and symbol (best rank) among core assets (rank < 1000) and every token of `allTokensOf`. */
  pairCandidateTokens(
    manager: EntityManager,
    allTokensOf: string[],
  ): Promise<{ chain: string; symbol: string; address: string | null; mint: string | null }[]> {
    return manager.query(
      `SELECT DISTINCT ON ("chain", "symbol") "chain", "symbol", "address", "mint" FROM ${this.t.tokens}
       WHERE "rank" < 1000 OR "chain" = ANY($1) ORDER BY "chain", "symbol", "rank", "id"`,
      [allTokensOf],
    );
  }

  /** Deletes these pairs where listed (one statement): a cursor past one of them stays valid. */
  async deletePairs(manager: EntityManager, pairs: CatalogPairKey[]): Promise<void> {
    if (pairs.length === 0) return;
    await manager.query(
      `DELETE FROM ${this.t.pairs} p USING unnest($1::text[], $2::text[], $3::text[], $4::text[])
         AS gone("from_chain", "to_chain", "token_in", "token_out")
       WHERE p."from_chain" = gone."from_chain" AND p."to_chain" = gone."to_chain"
         AND p."token_in" = gone."token_in" AND p."token_out" = gone."token_out"`,
      [
        pairs.map((p) => p.fromChain),
        pairs.map((p) => p.toChain),
        pairs.map((p) => p.tokenIn),
        pairs.map((p) => p.tokenOut),
      ],
    );
  }

  /** Upserts pairs, one statement per chunk. */
  async upsertPairs(manager: EntityManager, pairs: CatalogPairUpsert[], nowMs: number): Promise<void> {
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
          nowMs,
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
  }
}

/** (sort columns..., id) > (cursor values..., last id), as one row comparison. */
function keysetCondition(
  columns: SortColumn[],
  idExpr: string,
  sortKey: SortKey,
  lastId: string,
  param: (value: unknown) => string,
): string {
  const left = [...columns.map((c) => c.expr), idExpr].join(', ');
  const right = [
    ...columns.map((c, i) => `${param(String(sortKey[i]))}::${c.type}`),
    `${param(lastId)}::bigint`,
  ].join(', ');
  return `(${left}) > (${right})`;
}

export function sortKeyOf(row: object, columns: SortColumn[]): SortKey {
  return columns.map((c, i) => {
    const value = (row as Record<string, unknown>)[`sk${i}`];
    // bigint values arrive as strings; keep them as strings so nothing loses precision.
    return c.type === 'integer' ? Number(value) : String(value);
  });
}

function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** The parameters of a statement built piece by piece: `param(value)` adds one and answers its `$n`. */
function positionalParams(): { params: unknown[]; param: (value: unknown) => string } {
  const params: unknown[] = [];
  return {
    params,
    param: (value) => {
      params.push(value);
      return `$${params.length}`;
    },
  };
}
