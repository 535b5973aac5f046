import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsNotEmpty, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { SWAP_STATUSES, SwapStatus } from '@swapgw/contracts';
import { SWAP_LIST_LIMIT } from '../swap-resource';

/** Query of GET /swaps. */
export class ListSwapsQuery {
  @ApiPropertyOptional({
    enum: [...SWAP_STATUSES],
    description: 'Only swaps in this status (another value: 400 VALIDATION_FAILED, details.field status)',
  })
  @IsOptional()
  @IsIn(SWAP_STATUSES)
  status?: SwapStatus;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: SWAP_LIST_LIMIT.min,
    maximum: SWAP_LIST_LIMIT.max,
    default: SWAP_LIST_LIMIT.default,
  })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(SWAP_LIST_LIMIT.min)
  @Max(SWAP_LIST_LIMIT.max)
  limit?: number;

  @ApiPropertyOptional({
    description: 'Opaque cursor from meta.nextCursor of the previous page (same status filter)',
  })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(512)
  cursor?: string;
}
