import { Injectable } from '@nestjs/common';
import { baseUnitsToAmount, type TermsChain } from '@swapgw/chains';
import {
  CatalogMessageTypes,
  CodedError,
  CreateQuoteRequest,
  ErrorCodes,
  ListChainsRequest,
  ListChainsResult,
  ListTokensRequest,
  ListTokensResult,
  QuoteMessageTypes,
  QuoteResult,
  Topics,
} from '@swapgw/contracts';
import { RequestReplyClient } from '@swapgw/messaging';
import { Clock } from '@swapgw/runtime';
import { LimitOrderServiceConfig } from '../config/limit-order-service.config';
import { FillQuote } from '../orders/fill-search';
import { CatalogDirectory, MarketQuoter, QuoteTerms, TokenInfo } from './upstream.ports';

const TOKEN_CACHE_MS = 5 * 60 * 1000;
const CHAIN_CACHE_MS = 60 * 1000;

/**
 * The catalog of quote-service over `catalog.requests`: GET /chains (cached a minute) and a
 * token's decimals (cached five minutes once found; a miss is asked again each time).
 */
@Injectable()
export class KafkaCatalogDirectory extends CatalogDirectory {
  private readonly tokens = new Map<string, { token: TokenInfo; atMs: number }>();
  private chains: { byId: Map<string, TermsChain>; atMs: number } | undefined;

  constructor(
    private readonly rr: RequestReplyClient,
    private readonly config: LimitOrderServiceConfig,
    private readonly clock: Clock,
  ) {
    super();
  }

  async chain(id: string): Promise<TermsChain | undefined> {
    if (!this.chains || this.clock.nowMs() - this.chains.atMs >= CHAIN_CACHE_MS) {
      const request: ListChainsRequest = {};
      const result = await this.rr.request<ListChainsResult>(
        Topics.catalogRequests,
        CatalogMessageTypes.listChains,
        id,
        request,
        {
          timeoutMs: this.config.SERVICE_REQUEST_TIMEOUT_MS,
        },
      );
      const byId = new Map(
        result.chains.map((c) => [
          c.id,
          { id: c.id, family: c.family, network: c.network } satisfies TermsChain,
        ]),
      );
      this.chains = { byId, atMs: this.clock.nowMs() };
    }
    return this.chains.byId.get(id);
  }

  async token(chain: string, symbol: string): Promise<TokenInfo | undefined> {
    const cacheKey = `${chain}\u0000${symbol.toUpperCase()}`;
    const cached = this.tokens.get(cacheKey);
    if (cached && this.clock.nowMs() - cached.atMs < TOKEN_CACHE_MS) return cached.token;

    const request: ListTokensRequest = { chainRef: chain, q: symbol, limit: 100 };
    const result = await this.rr.request<ListTokensResult>(
      Topics.catalogRequests,
      CatalogMessageTypes.listTokens,
      chain,
      request,
      { timeoutMs: this.config.SERVICE_REQUEST_TIMEOUT_MS },
    );
    const match = result.tokens.find(
      (t) => t.chain === chain && t.symbol.toUpperCase() === symbol.toUpperCase(),
    );
    if (!match) return undefined;
    const token = { chain, symbol: match.symbol, decimals: match.decimals };
    this.tokens.set(cacheKey, { token, atMs: this.clock.nowMs() });
    return token;
  }
}

@Injectable()
export class QuoteServiceMarketQuoter extends MarketQuoter {
  constructor(
    private readonly rr: RequestReplyClient,
    private readonly config: LimitOrderServiceConfig,
    private readonly clock: Clock,
  ) {
    super();
  }

  async quote(terms: QuoteTerms, amountIn: bigint): Promise<FillQuote | null> {
    const request: CreateQuoteRequest = {
      owner: terms.owner,
      fromChain: terms.fromChain,
      toChain: terms.toChain,
      tokenIn: terms.tokenIn,
      tokenOut: terms.tokenOut,
      amount: baseUnitsToAmount(amountIn, terms.tokenInDecimals),
      ...(terms.network ? { network: terms.network as CreateQuoteRequest['network'] } : {}),
      ...(terms.slippageBps !== null && terms.slippageBps !== undefined
        ? { slippageBps: terms.slippageBps }
        : {}),
      ...(terms.recipient ? { recipient: terms.recipient } : {}),
    };
    const timeoutMs = this.config.SERVICE_REQUEST_TIMEOUT_MS;
    const quote = await this.rr.request<QuoteResult>(
      Topics.quoteRequests,
      QuoteMessageTypes.create,
      terms.owner,
      request,
      {
        timeoutMs,
      },
    );
    if (quote.routes.length === 0) return null;
    // The summaries rank the routes; the plan gives the authoritative base-unit amounts.
    const best = [...quote.routes].sort((a, b) =>
      compareDecimal(b.expectedAmountOut, a.expectedAmountOut),
    )[0];
    const plan = quote.routePlans.find((candidate) => candidate.routeId === best.routeId);
    if (!plan)
      throw new CodedError(
        ErrorCodes.QUOTE_UPSTREAM_FAILED,
        `quote ${quote.quoteId} came without the plan of route ${best.routeId}`,
      );
    return {
      amountIn,
      amountOut: BigInt(plan.expectedAmountOut),
      quoteId: quote.quoteId,
      routeId: best.routeId,
      plan,
    };
  }
}

/** Compares two non-negative decimal strings without floating point. */
export function compareDecimal(a: string, b: string): number {
  const [aw, af = ''] = a.split('.');
  const [bw, bf = ''] = b.split('.');
  const width = Math.max(af.length, bf.length);
  const av = BigInt(aw + af.padEnd(width, '0'));
  const bv = BigInt(bw + bf.padEnd(width, '0'));
  return av === bv ? 0 : av > bv ? 1 : -1;
}
