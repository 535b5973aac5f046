import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsNotEmpty, IsObject, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { DECIMAL_AMOUNT, TimeInForce, TimesInForce } from '@swapgw/contracts';

const AMOUNT_MESSAGE = '$property must be a positive decimal string such as "1.5"';

/** Body of POST /limit-orders/limit/{id}/replace: the terms of the new order (no route snapshot). */
export class ReplaceLimitOrderDto {
  @ApiProperty({ example: 'devnet-a', description: 'Source chain identifier (GET /chains)' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  fromChain!: string;

  @ApiProperty({ example: 'devnet-a', description: 'Destination chain identifier' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  toChain!: string;

  @ApiProperty({ example: 'WETH', description: 'Input token symbol' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(128)
  tokenIn!: string;

  @ApiProperty({ example: 'USDC', description: 'Output token symbol' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(128)
  tokenOut!: string;

  @ApiProperty({ example: '1.5', description: 'Human amount of tokenIn; at most the token decimals' })
  @IsString()
  @Matches(DECIMAL_AMOUNT, { message: AMOUNT_MESSAGE })
  @MaxLength(100)
  amount!: string;

  @ApiProperty({ example: '4500', description: 'Minimum human amount of tokenOut for the whole amount (the limit)' })
  @IsString()
  @Matches(DECIMAL_AMOUNT, { message: AMOUNT_MESSAGE })
  @MaxLength(100)
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

  @ApiPropertyOptional({ description: 'Absolute expiry (ms since epoch), GTD only; not together with expireAfterMs' })
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

  @ApiPropertyOptional({ enum: ['mainnet', 'testnet'] })
  @IsOptional()
  @IsIn(['mainnet', 'testnet'])
  network?: 'mainnet' | 'testnet';

  @ApiPropertyOptional({ minimum: 0, maximum: 5000, description: 'Slippage used for the swap built when the order triggers' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(5000)
  slippageBps?: number;

  @ApiPropertyOptional({
    description: 'Wallet that receives tokenOut and signs the swap built when the order triggers',
    example: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
  })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(128)
  recipient?: string;
}

/** Body of POST /limit-orders/limit. */
export class CreateLimitOrderDto extends ReplaceLimitOrderDto {
  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'Route snapshot, stored as given' })
  @IsOptional()
  @IsObject()
  route?: Record<string, unknown>;

  @ApiPropertyOptional({ description: 'Route identifier, stored as given' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  routeKey?: string;
}
