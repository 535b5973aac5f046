import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, Max, Min } from 'class-validator';
import {
  LIMIT_ORDER_LIST_DEFAULT,
  LIMIT_ORDER_LIST_MAX,
  LimitOrderStatus,
  LimitOrderStatuses,
} from '@swapgw/contracts';

/** Query of GET /limit-orders/limits. */
export class ListLimitOrdersQuery {
  @ApiPropertyOptional({ minimum: 1, maximum: LIMIT_ORDER_LIST_MAX, default: LIMIT_ORDER_LIST_DEFAULT })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(LIMIT_ORDER_LIST_MAX)
  limit?: number;

  @ApiPropertyOptional({ enum: LimitOrderStatuses })
  @IsOptional()
  @IsIn(LimitOrderStatuses)
  status?: LimitOrderStatus;
}
