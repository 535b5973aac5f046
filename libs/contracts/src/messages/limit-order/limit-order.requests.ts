import { Type } from 'class-transformer';
import {
  IsIn,
  IsInt,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import {
  LIMIT_ORDER_LIST_MAX,
  LimitOrderStatus,
  LimitOrderStatuses,
  TimeInForce,
  TimesInForce,
} from './limit-order.model';

/** Request types answered by limit-order-service on `limit-order.requests`. */
export const LimitOrderRequestTypes = {
  create: 'limit-order.create',
  get: 'limit-order.get',
  cancel: 'limit-order.cancel',
  replace: 'limit-order.replace',
  list: 'limit-order.list',
} as const;

/** Positive decimal string with no sign or exponent; the token's decimals are checked by the service. */
export const DECIMAL_AMOUNT = /^(0|[1-9]\d*)(\.\d+)?$/;
export const IDEMPOTENCY_KEY = /^[A-Za-z0-9._:-]{1,200}$/;

class OwnedRequest {
  /** API key owner, resolved by the gateway. */
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  owner!: string;
}

class IdempotentOwnedRequest extends OwnedRequest {
  @Matches(IDEMPOTENCY_KEY)
  idempotencyKey!: string;
}

/** Fields of a new order, shared by create and replace. */
export class LimitOrderTerms extends IdempotentOwnedRequest {
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  fromChain!: string;

  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  toChain!: string;

  @IsString()
  @IsNotEmpty()
  @MaxLength(128)
  tokenIn!: string;

  @IsString()
  @IsNotEmpty()
  @MaxLength(128)
  tokenOut!: string;

  @Matches(DECIMAL_AMOUNT, { message: 'amount must be a positive decimal string' })
  @MaxLength(100)
  amount!: string;

  @Matches(DECIMAL_AMOUNT, { message: 'minAmountOut must be a positive decimal string' })
  @MaxLength(100)
  minAmountOut!: string;

  @IsOptional()
  @IsIn(TimesInForce)
  timeInForce?: TimeInForce;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  expiresAtMs?: number;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  expireAfterMs?: number;

  @IsOptional()
  @IsIn(['mainnet', 'testnet'])
  network?: 'mainnet' | 'testnet';

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(10_000)
  slippageBps?: number;

  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(128)
  recipient?: string;
}

export class CreateLimitOrderRequest extends LimitOrderTerms {
  @IsOptional()
  @IsObject()
  route?: Record<string, unknown>;

  @IsOptional()
  @IsString()
  @MaxLength(200)
  routeKey?: string;
}

export class ReplaceLimitOrderRequest extends LimitOrderTerms {
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  limitOrderId!: string;
}

export class GetLimitOrderRequest extends OwnedRequest {
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  limitOrderId!: string;
}

export class CancelLimitOrderRequest extends IdempotentOwnedRequest {
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  limitOrderId!: string;

  @IsOptional()
  @IsString()
  @MaxLength(500)
  reason?: string;
}

export class ListLimitOrdersRequest extends OwnedRequest {
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(LIMIT_ORDER_LIST_MAX)
  limit?: number;

  @IsOptional()
  @IsIn(LimitOrderStatuses)
  status?: LimitOrderStatus;
}
