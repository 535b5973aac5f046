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
  @ApiProperty({ enum: LimitOrderStatuses, description: 'open; IOC/FOK: triggered or expired' })
  status!: LimitOrderStatus;
  @ApiProperty({ type: 'integer' }) expiresAtMs!: number;
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
  @ApiProperty({
    enum: LimitOrderStatuses,
    description:
      'open; then triggered, canceled, expired, or failed (the watcher could no longer check the order: failureCode says why)',
  })
  status!: LimitOrderStatus;
  @ApiProperty({ enum: TimesInForce }) timeInForce!: TimeInForce;
  @ApiProperty({ type: 'integer' }) createdAtMs!: number;
  @ApiProperty({ type: 'integer' }) updatedAtMs!: number;
  @ApiProperty({ type: 'integer' }) expiresAtMs!: number;
  @ApiProperty() minAmountOut!: string;
  @ApiProperty() fromChain!: string;
  @ApiProperty() toChain!: string;
  @ApiProperty() tokenIn!: string;
  @ApiProperty() tokenOut!: string;
  @ApiProperty() amount!: string;
  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description: 'Part of amount that triggered (IOC may fill part)',
  })
  filledAmount!: string | null;
  @ApiPropertyOptional({ type: String, nullable: true }) network!: string | null;
  @ApiPropertyOptional({ type: Number, nullable: true }) slippageBps!: number | null;
  @ApiPropertyOptional({ type: String, nullable: true }) recipient!: string | null;
  @ApiPropertyOptional({ type: String, nullable: true }) routeKey!: string | null;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true, nullable: true }) route!: Record<
    string,
    unknown
  > | null;
  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description: 'Swap built for the owner when triggered',
  })
  swapId!: string | null;
  @ApiPropertyOptional({ type: String, nullable: true }) cancelReason!: string | null;
  @ApiPropertyOptional({
    type: String,
    nullable: true,
    example: 'UNKNOWN_TOKEN',
    description:
      'Status failed: the error code the checks of the order ended with, as POST /quote answers it for the same terms ' +
      '(UNKNOWN_TOKEN after a delisting, UNKNOWN_CHAIN after a chain left GET /chains...); null otherwise',
  })
  failureCode!: string | null;
  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description: 'Status failed: the message of that error',
  })
  failureMessage!: string | null;
  @ApiPropertyOptional({ type: String, nullable: true }) replacesLimitOrderId!: string | null;
  @ApiPropertyOptional({ type: String, nullable: true }) replacedByLimitOrderId!: string | null;
}

export class LimitOrderListResponse implements LimitOrderList {
  @ApiProperty({ type: [LimitOrderResponse] }) limitOrders!: LimitOrderResponse[];
}
