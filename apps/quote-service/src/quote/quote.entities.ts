import type { QuoteRouteSummary, RoutePlan } from '@swapgw/contracts';
import { msColumn } from '@swapgw/persistence';
import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

@Entity({ name: 'quotes' })
export class QuoteEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ type: 'text', nullable: true })
  owner!: string | null;

  @Column({ name: 'from_chain', type: 'text' })
  fromChain!: string;

  @Column({ name: 'to_chain', type: 'text' })
  toChain!: string;

  @Column({ name: 'token_in', type: 'text' })
  tokenIn!: string;

  @Column({ name: 'token_out', type: 'text' })
  tokenOut!: string;

  /** Base units of tokenIn. */
  @Column({ name: 'amount_in', type: 'numeric', precision: 78, scale: 0 })
  amountIn!: string;

  /** The request's slippage; null = automatic, computed per route (see the route's summary). */
  @Column({ name: 'slippage_bps', type: 'integer', nullable: true })
  slippageBps!: number | null;

  @Column({ type: 'text', nullable: true })
  recipient!: string | null;

  /** The request as received, for audit and debugging. */
  @Column({ type: 'jsonb' })
  request!: Record<string, unknown>;

  /** Per-provider outcome: ok / no-route / failed / timed-out, with timings. */
  @Column({ name: 'provider_outcomes', type: 'jsonb' })
  providerOutcomes!: Record<string, unknown>[];

  @Column(msColumn('created_at_ms'))
  createdAtMs!: number;

  @Column(msColumn('expires_at_ms'))
  expiresAtMs!: number;
}

@Entity({ name: 'quote_routes' })
@Index('quote_routes_quote_rank', ['quoteId', 'rank'], { unique: true })
export class QuoteRouteEntity {
  @PrimaryColumn({ name: 'route_id', type: 'text' })
  routeId!: string;

  @Column({ name: 'quote_id', type: 'text' })
  quoteId!: string;

  /** 1 = best output. */
  @Column({ type: 'integer' })
  rank!: number;

  @Column({ type: 'jsonb' })
  summary!: QuoteRouteSummary;

  @Column({ type: 'jsonb' })
  plan!: RoutePlan;
}
