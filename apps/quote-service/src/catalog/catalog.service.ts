import { Injectable } from '@nestjs/common';
import {
  ChainView,
  ListChainsResult,
  ListPairsRequest,
  ListPairsResult,
  ListTokensRequest,
  ListTokensResult,
  PAIR_LIMIT,
  PairView,
  TOKEN_LIMIT,
  TokenSort,
  TokenView,
  CodedError,
  ErrorCodes,
} from '@swapgw/contracts';
import { DataSource } from 'typeorm';
import { CatalogSync } from './catalog-sync.service';
import { decodeCursor, encodeCursor, queryHash, SortKey } from './keyset-cursor';
import { quoteTables } from '../database/quote-tables';

interface SortColumn {
  /** SQL expression over alias t. */
  expr: string;
  /** Cast of the cursor value when compared. */
  type: 'integer' | 'bigint' | 'text';
}

/**
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

const PAIR_SORT_COLUMNS: SortColumn[] = [
  { expr: 'p."from_chain" COLLATE "C"', type: 'text' },
  { expr: 'p."to_chain" COLLATE "C"', type: 'text' },
  { expr: 'p."token_in" COLLATE "C"', type: 'text' },
  { expr: 'p."token_out" COLLATE "C"', type: 'text' },
];

interface TokenRow {
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

interface PairRow {
  id: string;
  from_chain: string;
  to_chain: string;
  token_in: string;
  token_out: string;
  providers: string[];
  supported: boolean;
  [sortKey: `sk${number}`]: string | number;
}

/** Read side of the catalog: GET /chains, /tokens and /pairs, with keyset pagination. */
@Injectable()
export class CatalogService {
  /** Schema-qualified table names of this DataSource (see quoteTables). */
  private get t() {
    return quoteTables(this.dataSource);
  }

  constructor(
    private readonly dataSource: DataSource,
    private readonly sync: CatalogSync,
  ) {}

  async listChains(): Promise<ListChainsResult> {
    const rows: Array<{
      id: string;
      name: string;
      family: ChainView['family'];
      network: ChainView['network'];
      evm_chain_id: number | null;
      caip2: string;
      native_symbol: string;
    }> = await this.dataSource.query(
      `SELECT "id", "name", "family", "network", "evm_chain_id", "caip2", "native_symbol" FROM ${this.t.chains} ORDER BY "position", "id"`,
    );
    const chains: ChainView[] = rows.map((r) => ({
      id: r.id,
      name: r.name,
      family: r.family,
      network: r.network,
      chainId: r.evm_chain_id,
      caip2: r.caip2,
      nativeSymbol: r.native_symbol,
    }));
    return { chains };
  }

  async listTokens(request: ListTokensRequest): Promise<ListTokensResult> {
    const sort: TokenSort = request.sort ?? 'top';
    const limit = request.limit ?? TOKEN_LIMIT.default;
    const q = request.q?.trim() || undefined;
    const hash = queryHash('tokens', {
      chainRef: request.chainRef,
      q: q?.toLowerCase(),
      supportedOnly: request.supportedOnly,
      requireLogo: request.requireLogo,
      sort,
    });
    const columns = TOKEN_SORT_COLUMNS[sort];
    // Validate the cursor before any I/O: a bad cursor is the client's error whatever the upstream.
    const cursor = request.cursor ? decodeCursor(request.cursor, hash, columns.length) : undefined;
    await this.sync.ensureAvailable();
    await this.assertChain(request.chainRef);

    const params: unknown[] = [];
    const where: string[] = [];
    const param = (value: unknown) => {
      params.push(value);
      return `$${params.length}`;
    };
    if (request.chainRef) where.push(`t."chain" = ${param(request.chainRef)}`);
    if (q) {
      const pattern = param(`%${escapeLike(q)}%`);
      where.push(`(t."symbol" ILIKE ${pattern} OR t."name" ILIKE ${pattern})`);
    }
    if (request.supportedOnly) where.push(`t."supported"`);
    if (request.requireLogo) where.push(`t."logo_url" IS NOT NULL`);
    if (cursor) where.push(keysetCondition(columns, 't."id"', cursor.sortKey, cursor.lastId, param));

    const rows: TokenRow[] = await this.dataSource.query(
      `SELECT t.*, ${columns.map((c, i) => `${c.expr} AS "sk${i}"`).join(', ')}
       FROM ${this.t.tokens} t ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
       ORDER BY ${columns.map((c) => c.expr).join(', ')}, t."id"
       LIMIT ${param(limit + 1)}`,
      params,
    );
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    const nextCursor =
      rows.length > limit && last ? encodeCursor(hash, sortKeyOf(last, columns), String(last.id)) : null;
    const tokens = page.map((row) => tokenView(row, Boolean(request.debug)));
    return request.debug
      ? {
          tokens,
          nextCursor,
          debug: { sort, ranksBy: sortDescription(sort), sources: this.sync.sourceStatus() },
        }
      : { tokens, nextCursor };
  }

  async listPairs(request: ListPairsRequest): Promise<ListPairsResult> {
    const limit = request.limit ?? PAIR_LIMIT.default;
    const tokenIn = request.tokenIn?.toUpperCase();
    const tokenOut = request.tokenOut?.toUpperCase();
    const hash = queryHash('pairs', {
      chainRef: request.chainRef,
      tokenIn,
      tokenOut,
      supportedOnly: request.supportedOnly,
    });
    const cursor = request.cursor ? decodeCursor(request.cursor, hash, PAIR_SORT_COLUMNS.length) : undefined;
    await this.sync.ensureAvailable();
    await this.assertChain(request.chainRef);

    const params: unknown[] = [];
    const where: string[] = [];
    const param = (value: unknown) => {
      params.push(value);
      return `$${params.length}`;
    };
    if (request.chainRef) {
      const chain = param(request.chainRef);
      where.push(`p."from_chain" = ${chain} AND p."to_chain" = ${chain}`);
    }
    if (tokenIn) where.push(`upper(p."token_in") = ${param(tokenIn)}`);
    if (tokenOut) where.push(`upper(p."token_out") = ${param(tokenOut)}`);
    if (request.supportedOnly) where.push(`p."supported"`);
    if (cursor)
      where.push(keysetCondition(PAIR_SORT_COLUMNS, 'p."id"', cursor.sortKey, cursor.lastId, param));

    const rows: PairRow[] = await this.dataSource.query(
      `SELECT p.*, ${PAIR_SORT_COLUMNS.map((c, i) => `${c.expr} AS "sk${i}"`).join(', ')}
       FROM ${this.t.pairs} p ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
       ORDER BY ${PAIR_SORT_COLUMNS.map((c) => c.expr).join(', ')}, p."id"
       LIMIT ${param(limit + 1)}`,
      params,
    );
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    const nextCursor =
      rows.length > limit && last
        ? encodeCursor(hash, sortKeyOf(last, PAIR_SORT_COLUMNS), String(last.id))
        : null;
    const pairs: PairView[] = page.map((row) => {
      const view: PairView = {
        fromChain: row.from_chain,
        toChain: row.to_chain,
        tokenIn: row.token_in,
        tokenOut: row.token_out,
      };
      if (request.debug) view.debug = { providers: row.providers, supported: row.supported };
      return view;
    });
    return request.debug
      ? { pairs, nextCursor, debug: { sources: this.sync.sourceStatus() } }
      : { pairs, nextCursor };
  }

  /** A chainRef that names no chain is a client error, not an empty page. */
  private async assertChain(chainRef: string | undefined): Promise<void> {
    if (!chainRef) return;
    const rows: unknown[] = await this.dataSource.query(`SELECT 1 FROM ${this.t.chains} WHERE "id" = $1`, [
      chainRef,
    ]);
    if (rows.length === 0)
      throw new CodedError(ErrorCodes.UNKNOWN_CHAIN, `chainRef ${chainRef} is not in GET /chains`, {
        chainRef,
      });
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

function sortKeyOf(row: object, columns: SortColumn[]): SortKey {
  return columns.map((c, i) => {
    const value = (row as Record<string, unknown>)[`sk${i}`];
    // bigint values arrive as strings; keep them as strings so nothing loses precision.
    return c.type === 'integer' ? Number(value) : String(value);
  });
}

function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

function sortDescription(sort: TokenSort): string {
  switch (sort) {
    case 'top':
      return 'curated rank: native coins and major assets first, then token list order';
    case 'marketcap':
      return 'proxy: number of chains the token is bridged to (no market cap data in the token lists), then rank';
    case 'trending':
      return 'quotes naming the token in this service, then rank';
    case 'asc':
      return 'symbol A-Z, then chain';
  }
}

function tokenView(row: TokenRow, debug: boolean): TokenView {
  const view: TokenView = { chain: row.chain, symbol: row.symbol, name: row.name, decimals: row.decimals };
  if (row.address) view.address = row.address;
  if (row.mint) view.mint = row.mint;
  if (row.logo_url) view.logoUrl = row.logo_url;
  if (debug) {
    view.debug = {
      source: row.source,
      supported: row.supported,
      providers: row.providers,
      rank: row.rank,
      bridgedChains: row.bridged_chains,
      quoteCount: Number(row.quote_count),
    };
  }
  return view;
}
