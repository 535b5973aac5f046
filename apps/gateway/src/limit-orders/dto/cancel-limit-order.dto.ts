import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';

/** Optional body of DELETE /limit-orders/limit/{id}. */
export class CancelLimitOrderDto {
  @ApiPropertyOptional({ maxLength: 500, description: 'Why the order is canceled; kept on the order' })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  reason?: string;
}
