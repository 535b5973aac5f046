import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { LimitOrderStatus, TimeInForce } from '@swapgw/contracts';
import { msColumn } from '@swapgw/persistence';

/**
 * One limit order. Amounts are kept twice: the human string the client sent (what the API shows)
 * and base units as numeric(78,0) (what comparisons use); never floats.
 */
@Entity({ name: 'limit_orders' })
export class LimitOrderEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ type: 'text' })
  owner!: string;

  @Column({ type: 'text' })
  status!: LimitOrderStatus;

  @Column({ name: 'time_in_force', type: 'text' })
  timeInForce!: TimeInForce;

  @Column({ name: 'from_chain', type: 'text' })
  fromChain!: string;

  @Column({ name: 'to_chain', type: 'text' })
  toChain!: string;

  @Column({ name: 'token_in', type: 'text' })
  tokenIn!: string;

  @Column({ name: 'token_out', type: 'text' })
  tokenOut!: string;

  @Column({ name: 'token_in_decimals', type: 'int' })
  tokenInDecimals!: number;

  @Column({ name: 'token_out_decimals', type: 'int' })
  tokenOutDecimals!: number;

  @Column({ type: 'text' })
  amount!: string;

  @Column({ name: 'amount_base', type: 'numeric', precision: 78, scale: 0 })
  amountBase!: string;

  @Column({ name: 'min_amount_out', type: 'text' })
  minAmountOut!: string;

  @Column({ name: 'min_amount_out_base', type: 'numeric', precision: 78, scale: 0 })
  minAmountOutBase!: string;

  /** Base units of tokenIn that triggered (all of it, or IOC's part); null while none did. */
  @Column({ name: 'filled_amount_base', type: 'numeric', precision: 78, scale: 0, nullable: true })
  filledAmountBase!: string | null;

  @Column(msColumn('expires_at_ms'))
  expiresAtMs!: number;

  @Column(msColumn('created_at_ms'))
  createdAtMs!: number;

  @Column(msColumn('updated_at_ms'))
  updatedAtMs!: number;

  /** When the watcher should quote this open order next. */
  @Column(msColumn('next_check_at_ms'))
  nextCheckAtMs!: number;

  @Column({ type: 'text', nullable: true })
  network!: string | null;

  @Column({ name: 'slippage_bps', type: 'int', nullable: true })
  slippageBps!: number | null;

  @Column({ type: 'text', nullable: true })
  recipient!: string | null;

  @Column({ type: 'jsonb', nullable: true })
  route!: Record<string, unknown> | null;

  @Column({ name: 'route_key', type: 'text', nullable: true })
  routeKey!: string | null;

  @Column({ name: 'swap_id', type: 'text', nullable: true })
  swapId!: string | null;

  @Column({ name: 'cancel_reason', type: 'text', nullable: true })
  cancelReason!: string | null;

  /**
   * Checks of this open order in a row that quote-service or the planner refused for its terms
   * (a 400 code); reset by a check that quotes. At WATCH_MAX_FAILED_CHECKS the order fails.
   */
  @Column({ name: 'failed_checks', type: 'int', default: 0 })
  failedChecks!: number;

  /** Status `failed`: the error code and message of the last refused check. */
  @Column({ name: 'failure_code', type: 'text', nullable: true })
  failureCode!: string | null;

  @Column({ name: 'failure_message', type: 'text', nullable: true })
  failureMessage!: string | null;

  @Column({ name: 'replaces_id', type: 'text', nullable: true })
  replacesId!: string | null;

  @Column({ name: 'replaced_by_id', type: 'text', nullable: true })
  replacedById!: string | null;

  /** Incremented on every change; also the version of the event announcing it. */
  @Column({ type: 'int' })
  version!: number;
}
