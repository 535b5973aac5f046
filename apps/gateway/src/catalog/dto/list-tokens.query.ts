import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsNotEmpty, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { TOKEN_LIMIT, TOKEN_SORTS, TokenSort } from '@swapgw/contracts';
import { BOOLEAN_LIKE_VALUES, IsBooleanLikeQuery } from '../../common/validation';

/** Query of GET /tokens. */
export class ListTokensQuery {
  @ApiPropertyOptional({
    description: 'Only tokens of this chain (id from GET /chains)',
    example: 'devnet-a',
  })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  chainRef?: string;

  @ApiPropertyOptional({
    description: 'Search in symbol or name, case-insensitive (substring)',
    example: 'usd',
  })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  q?: string;

  @ApiPropertyOptional({ minimum: TOKEN_LIMIT.min, maximum: TOKEN_LIMIT.max, default: TOKEN_LIMIT.default })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(TOKEN_LIMIT.min)
  @Max(TOKEN_LIMIT.max)
  limit?: number;

  @ApiPropertyOptional({
    description: 'Opaque cursor from data.nextCursor of the previous page (same filters and sort)',
  })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(2048)
  cursor?: string;

  @ApiPropertyOptional({
    enum: BOOLEAN_LIKE_VALUES,
    description: 'Only tokens tradable through a configured provider',
  })
  @IsOptional()
  @IsBooleanLikeQuery()
  supportedOnly?: boolean;

  @ApiPropertyOptional({ enum: BOOLEAN_LIKE_VALUES, description: 'Only tokens with a logo URL' })
  @IsOptional()
  @IsBooleanLikeQuery()
  requireLogo?: boolean;

  @ApiPropertyOptional({
    enum: TOKEN_SORTS,
    default: 'top',
    description:
      'top: curated rank (native coins and majors first, then token list order). marketcap: the lists carry no market ' +
      'cap, so a proxy: number of chains the token is bridged to, then rank. trending: quotes naming the token in this ' +
      'service, then rank. asc: symbol A-Z, then chain.',
  })
  @IsOptional()
  @IsIn(TOKEN_SORTS)
  sort?: TokenSort;

  @ApiPropertyOptional({
    enum: BOOLEAN_LIKE_VALUES,
    description: 'Add source, support and ranking data per token',
  })
  @IsOptional()
  @IsBooleanLikeQuery()
  debug?: boolean;
}
