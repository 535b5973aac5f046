import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  LimitOrderCanceled,
  LimitOrderCreated,
  LimitOrderList,
  LimitOrderReplaced,
  LimitOrderStatus,
  LimitOrderStatuses,
  LimitOrderView,
  TimeInForce,
  TimesInForce,
} from '@swapgw/contracts';

/** Swagger shapes of the limit-order responses (data of the envelope). */
export class LimitOrderCreatedResponse implements LimitOrderCreated {
  @ApiProperty() limitOrderId!: string;
  @ApiProperty({ enum: LimitOrderStatuses, description: 'open; IOC/FOK: triggered or expired' }) status!: LimitOrderStatus;
  @ApiProperty() expiresAtMs!: number;
  @ApiProperty() minAmountOut!: string;
}

export class LimitOrderReplacedResponse extends LimitOrderCreatedResponse implements LimitOrderReplaced {
  @ApiProperty({ description: 'The order this one replaced (now canceled)' }) replacesLimitOrderId!: string;
}

export class LimitOrderCanceledResponse implements LimitOrderCanceled {
  @ApiProperty() limitOrderId!: string;
  @ApiProperty({ enum: ['canceled'] }) status!: LimitOrderStatus;
}

export class LimitOrderResponse implements LimitOrderView {
  @ApiProperty() limitOrderId!: string;
  @ApiProperty({ enum: LimitOrderStatuses }) status!: LimitOrderStatus;
  @ApiProperty({ enum: TimesInForce }) timeInForce!: TimeInForce;
  @ApiProperty() createdAtMs!: number;
  @ApiProperty() updatedAtMs!: number;
  @ApiProperty() expiresAtMs!: number;
  @ApiProperty() minAmountOut!: string;
  @ApiProperty() fromChain!: string;
  @ApiProperty() toChain!: string;
  @ApiProperty() tokenIn!: string;
  @ApiProperty() tokenOut!: string;
  @ApiProperty() amount!: string;
  @ApiPropertyOptional({ type: String, nullable: true, description: 'Part of amount that triggered (IOC may fill part)' })
  filledAmount!: string | null;
  @ApiPropertyOptional({ type: String, nullable: true }) network!: string | null;
  @ApiPropertyOptional({ type: Number, nullable: true }) slippageBps!: number | null;
  @ApiPropertyOptional({ type: String, nullable: true }) recipient!: string | null;
  @ApiPropertyOptional({ type: String, nullable: true }) routeKey!: string | null;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true, nullable: true }) route!: Record<string, unknown> | null;
  @ApiPropertyOptional({ type: String, nullable: true, description: 'Swap built for the owner when triggered' })
  swapId!: string | null;
  @ApiPropertyOptional({ type: String, nullable: true }) cancelReason!: string | null;
  @ApiPropertyOptional({ type: String, nullable: true }) replacesLimitOrderId!: string | null;
  @ApiPropertyOptional({ type: String, nullable: true }) replacedByLimitOrderId!: string | null;
}

export class LimitOrderListResponse implements LimitOrderList {
  @ApiProperty({ type: [LimitOrderResponse] }) limitOrders!: LimitOrderResponse[];
}
