import { IsIn, IsInt, IsNotEmpty, IsOptional, IsString } from 'class-validator';
import { LimitOrderStatus, LimitOrderStatuses, TimeInForce, TimesInForce } from './limit-order.model';

/** Event types limit-order-service publishes on `limit-order.events` (key: limitOrderId). */
export const LimitOrderEventTypes = {
  created: 'limit-order.created',
  canceled: 'limit-order.canceled',
  replaced: 'limit-order.replaced',
  triggered: 'limit-order.triggered',
  expired: 'limit-order.expired',
  /** The watcher gave up on an open order it could no longer check (payload: failureCode, failureMessage). */
  failed: 'limit-order.failed',
} as const;
export type LimitOrderEventType = (typeof LimitOrderEventTypes)[keyof typeof LimitOrderEventTypes];

/**
 * Payload of every limit-order event: the order's state after the change plus what changed.
 * One class for all types keeps consumers simple; `type` in the envelope says what happened.
 */
export class LimitOrderEventPayload {
  @IsString()
  @IsNotEmpty()
  limitOrderId!: string;

  @IsString()
  @IsNotEmpty()
  owner!: string;

  @IsIn(LimitOrderStatuses)
  status!: LimitOrderStatus;

  @IsIn(TimesInForce)
  timeInForce!: TimeInForce;

  @IsInt()
  version!: number;

  @IsInt()
  expiresAtMs!: number;

  @IsString()
  amount!: string;

  @IsString()
  minAmountOut!: string;

  @IsOptional()
  @IsString()
  filledAmount?: string | null;

  @IsOptional()
  @IsString()
  swapId?: string | null;

  @IsOptional()
  @IsString()
  reason?: string | null;

  @IsOptional()
  @IsString()
  failureCode?: string | null;

  @IsOptional()
  @IsString()
  failureMessage?: string | null;

  /** `limit-order.failed`: the refused checks in a row that failed the order. */
  @IsOptional()
  @IsInt()
  failedChecks?: number;

  @IsOptional()
  @IsString()
  replacesLimitOrderId?: string | null;

  @IsOptional()
  @IsString()
  replacedByLimitOrderId?: string | null;
}
