import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
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

/** Every statement on `quotes` and `quote_routes` (schema-qualified: see quoteTables). */
@Injectable()
export class QuoteRepository {
  constructor(private readonly dataSource: DataSource) {}

  private get t() {
    return quoteTables(this.dataSource);
  }

  /**
   * The quote and its routes in one statement: written together without a transaction's two
   * extra round trips (BEGIN, COMMIT); a statement is atomic on its own.
   */
  async insert(quote: StoredQuote): Promise<void> {
    await this.dataSource.query(
      `WITH "quote" AS (
         INSERT INTO ${this.t.quotes} ("id", "owner", "from_chain", "to_chain", "token_in", "token_out", "amount_in", "slippage_bps", "recipient", "request", "provider_outcomes", "created_at_ms", "expires_at_ms")
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
         RETURNING "id")
       INSERT INTO ${this.t.quote_routes} ("route_id", "quote_id", "rank", "summary", "plan")
       SELECT r."routeId", q."id", r."rank", r."summary", r."plan"
       FROM "quote" q, jsonb_to_recordset($14::jsonb) AS r("routeId" text, "rank" int, "summary" jsonb, "plan" jsonb)`,
      [
        quote.id,
        quote.owner,
        quote.fromChain,
        quote.toChain,
        quote.tokenIn,
        quote.tokenOut,
        quote.amountIn,
        quote.slippageBps,
        quote.recipient,
        JSON.stringify(quote.request),
        JSON.stringify(quote.providerOutcomes),
        quote.createdAtMs,
        quote.expiresAtMs,
        JSON.stringify(quote.routes),
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
