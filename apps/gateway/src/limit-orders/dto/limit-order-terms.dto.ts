import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsObject, IsOptional, IsString, MaxLength, Min } from 'class-validator';
import { TimeInForce, TimesInForce } from '@swapgw/contracts';
import { IsDecimalAmount } from '../../common/validation';
import { SwapTermsDto } from '../../common/dto/swap-terms.dto';

/**
 * Body of POST /limit-orders/limit/{id}/replace: the terms of the new order (no route snapshot).
 * The swap terms are POST /quote's own (SwapTermsDto: same limits and messages); limit-order-service
 * then checks them as quote-service checks a quote.
 */
export class ReplaceLimitOrderDto extends SwapTermsDto {
  @ApiProperty({
    example: '4500',
    description: 'Minimum human amount of tokenOut for the whole amount (the limit)',
  })
  @IsDecimalAmount()
  minAmountOut!: string;

  @ApiPropertyOptional({
    enum: TimesInForce,
    description:
      'GTC (default without expiry fields): until canceled, at most 90 days. GTD (default with an expiry field): ' +
      'until expiresAtMs / now + expireAfterMs. IOC: checked once now; the largest part meeting the limit triggers, ' +
      'the rest expires. FOK: checked once now; all of it triggers or the order expires. IOC and FOK need recipient.',
  })
  @IsOptional()
  @IsIn(TimesInForce)
  timeInForce?: TimeInForce;

  @ApiPropertyOptional({
    description: 'Absolute expiry (ms since epoch), GTD only; not together with expireAfterMs',
  })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  expiresAtMs?: number;

  @ApiPropertyOptional({ description: 'Relative expiry (ms), GTD only; not together with expiresAtMs' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  expireAfterMs?: number;
}

/** Body of POST /limit-orders/limit. */
export class CreateLimitOrderDto extends ReplaceLimitOrderDto {
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: 'Route snapshot, stored as given',
  })
  @IsOptional()
  @IsObject()
  route?: Record<string, unknown>;

  @ApiPropertyOptional({ description: 'Route identifier, stored as given' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  routeKey?: string;
}
