import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { GroupedWrites } from '@swapgw/runtime';
import { quoteTables } from '../database/quote-tables';

/** A quote as stored: the request's terms, what the providers did, and its ranked routes. */
export interface StoredQuote {
  id: string;
  owner: string | null;
  fromChain: string;
  toChain: string;
  tokenIn: string;
  tokenOut: string;
  amountIn: string;
  slippageBps: number | null;
  recipient: string | null;
  /** The request and the providers' outcomes, as JSON. */
  request: unknown;
  providerOutcomes: unknown;
  createdAtMs: number;
  expiresAtMs: number;
  routes: { routeId: string; rank: number; summary: unknown; plan: unknown }[];
}

/**
 * Quotes written in one statement, at most, and statements at once. Under a burst, a thousand
 * quotes are a handful of inserts rather than a thousand statements, each waiting for one of the
 * pool's connections (measured: a quote waited half its handling, 0.3 to 0.6 s, for its own insert,
 * and quote-service's in-flight cap turned that wait into seconds of queue on quote.requests).
 */
export const QUOTES_PER_INSERT = 100;
const QUOTE_INSERTS_IN_FLIGHT = 2;

/** Every statement on `quotes` and `quote_routes` (schema-qualified: see quoteTables). */
@Injectable()
export class QuoteRepository {
  /** Quotes stored together: each caller's promise settles with its statement (GroupedWrites). */
  private readonly inserts = new GroupedWrites<StoredQuote>({
    maxBatch: QUOTES_PER_INSERT,
    maxInFlight: QUOTE_INSERTS_IN_FLIGHT,
    write: (quotes) => this.insertAll(quotes),
  });

  constructor(private readonly dataSource: DataSource) {}

  private get t() {
    return quoteTables(this.dataSource);
  }

  /**
   * Stores the quote and its routes; resolves once they are stored, with the quotes that arrived
   * with it (one statement for them all), and rejects with that statement's error.
   */
  insert(quote: StoredQuote): Promise<void> {
    return this.inserts.add(quote);
  }

  /**
   * The quotes and their routes in one statement: written together without a transaction's two
   * extra round trips (BEGIN, COMMIT); a statement is atomic on its own.
   */
  private async insertAll(quotes: StoredQuote[]): Promise<void> {
    const column = <T>(value: (quote: StoredQuote) => T) => quotes.map(value);
    await this.dataSource.query(
      `WITH "quote" AS (
         INSERT INTO ${this.t.quotes} ("id", "owner", "from_chain", "to_chain", "token_in", "token_out", "amount_in", "slippage_bps", "recipient", "request", "provider_outcomes", "created_at_ms", "expires_at_ms")
         SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::numeric[], $8::int[], $9::text[], $10::jsonb[], $11::jsonb[], $12::bigint[], $13::bigint[])
         RETURNING "id")
       INSERT INTO ${this.t.quote_routes} ("route_id", "quote_id", "rank", "summary", "plan")
       SELECT r."routeId", q."id", r."rank", r."summary", r."plan"
       FROM "quote" q
       JOIN jsonb_to_recordset($14::jsonb) AS r("quoteId" text, "routeId" text, "rank" int, "summary" jsonb, "plan" jsonb)
         ON r."quoteId" = q."id"`,
      [
        column((quote) => quote.id),
        column((quote) => quote.owner),
        column((quote) => quote.fromChain),
        column((quote) => quote.toChain),
        column((quote) => quote.tokenIn),
        column((quote) => quote.tokenOut),
        column((quote) => quote.amountIn),
        column((quote) => quote.slippageBps),
        column((quote) => quote.recipient),
        column((quote) => JSON.stringify(quote.request)),
        column((quote) => JSON.stringify(quote.providerOutcomes)),
        column((quote) => quote.createdAtMs),
        column((quote) => quote.expiresAtMs),
        JSON.stringify(
          quotes.flatMap((quote) => quote.routes.map((route) => ({ quoteId: quote.id, ...route }))),
        ),
      ],
    );
  }

  /** Deletes the quotes (and, by cascade, their routes) that expired before `cutoffMs`; answers how many. */
  async deleteExpiredBefore(cutoffMs: number): Promise<number> {
    const [, affected] = (await this.dataSource.query(
      `DELETE FROM ${this.t.quotes} WHERE "expires_at_ms" < $1`,
      [cutoffMs],
    )) as [unknown, number];
    return affected;
  }
}
