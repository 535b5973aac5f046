import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsNotEmpty, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { PAIR_LIMIT } from '@swapgw/contracts';
import { BOOLEAN_LIKE_VALUES, IsBooleanLikeQuery } from '../../common/validation';

/** Query of GET /pairs. */
export class ListPairsQuery {
  @ApiPropertyOptional({ description: 'Only same-chain pairs of this chain', example: 'devnet-a' })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  chainRef?: string;

  @ApiPropertyOptional({ description: 'Input token symbol (case-insensitive)', example: 'USDC' })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  tokenIn?: string;

  @ApiPropertyOptional({ description: 'Output token symbol (case-insensitive)', example: 'DAI' })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  tokenOut?: string;

  @ApiPropertyOptional({ minimum: PAIR_LIMIT.min, maximum: PAIR_LIMIT.max, default: PAIR_LIMIT.default })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(PAIR_LIMIT.min)
  @Max(PAIR_LIMIT.max)
  limit?: number;

  @ApiPropertyOptional({
    description: 'Opaque cursor from data.nextCursor of the previous page (same filters)',
  })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(2048)
  cursor?: string;

  @ApiPropertyOptional({
    enum: BOOLEAN_LIKE_VALUES,
    description: 'Only pairs a configured provider can trade',
  })
  @IsOptional()
  @IsBooleanLikeQuery()
  supportedOnly?: boolean;

  @ApiPropertyOptional({ enum: BOOLEAN_LIKE_VALUES, description: 'Add the providers of each pair' })
  @IsOptional()
  @IsBooleanLikeQuery()
  debug?: boolean;
}
