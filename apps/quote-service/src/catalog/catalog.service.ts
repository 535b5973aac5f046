import { Injectable } from '@nestjs/common';
import { ChainRegistry, findFamilyTraits } from '@swapgw/chains';
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
import { CatalogSync } from './catalog-sync.service';
import {
  CatalogRepository,
  CatalogTokenRow,
  PAIR_SORT_COLUMNS,
  sortKeyOf,
  TOKEN_SORT_COLUMNS,
} from './catalog.repository';
import { decodeCursor, encodeCursor, queryHash } from './keyset-cursor';

/** Read side of the catalog: GET /chains, /tokens and /pairs, with keyset pagination. */
@Injectable()
export class CatalogService {
  constructor(
    private readonly catalog: CatalogRepository,
    private readonly sync: CatalogSync,
    private readonly registry: ChainRegistry,
  ) {}

  async listChains(): Promise<ListChainsResult> {
    const rows = await this.catalog.listChains();
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

    const rows = await this.catalog.tokenPage(
      {
        chain: request.chainRef,
        search: q,
        supportedOnly: request.supportedOnly,
        requireLogo: request.requireLogo,
      },
      sort,
      cursor,
      limit + 1,
    );
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    const nextCursor =
      rows.length > limit && last ? encodeCursor(hash, sortKeyOf(last, columns), String(last.id)) : null;
    const tokens = page.map((row) =>
      tokenView(
        row,
        findFamilyTraits(this.registry.find(row.chain)?.family)?.tokens?.mintViewedAs === 'denom',
        Boolean(request.debug),
      ),
    );
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

    const rows = await this.catalog.pairPage(
      { chain: request.chainRef, tokenIn, tokenOut, supportedOnly: request.supportedOnly },
      cursor,
      limit + 1,
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
    if (!(await this.catalog.hasChain(chainRef)))
      throw new CodedError(ErrorCodes.UNKNOWN_CHAIN, `chainRef ${chainRef} is not in GET /chains`, {
        chainRef,
      });
  }
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

/** A token as the catalog answers it: a chain-native identity (`mint`) shown as its family names it (a Cosmos denom: FamilyTraits' mintViewedAs). */
function tokenView(row: CatalogTokenRow, mintAsDenom: boolean, debug: boolean): TokenView {
  const view: TokenView = { chain: row.chain, symbol: row.symbol, name: row.name, decimals: row.decimals };
  if (row.address) view.address = row.address;
  if (row.mint && mintAsDenom) view.denom = row.mint;
  else if (row.mint) view.mint = row.mint;
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
