import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsNotEmpty, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { QUOTE_NETWORKS, QuoteNetwork } from '@swapgw/contracts';
import { IsDecimalAmount, IsWalletAddress } from '../validation';

/**
 * The terms of a swap, with one set of limits for every body that carries them: POST /quote
 * (CreateQuoteDto) and the limit orders (CreateLimitOrderDto, ReplaceLimitOrderDto), which
 * limit-order-service then checks as quote-service checks a quote.
 */
export class SwapTermsDto {
  @ApiProperty({ example: 'devnet-a', description: 'Source chain (id from GET /chains)' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  fromChain!: string;

  @ApiProperty({ example: 'devnet-b', description: 'Destination chain' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  toChain!: string;

  @ApiProperty({ example: 'WETH', description: 'Input token symbol' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  tokenIn!: string;

  @ApiProperty({ example: 'USDC', description: 'Output token symbol' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  tokenOut!: string;

  @ApiProperty({
    example: '1.5',
    description: 'Human amount of tokenIn; at most the token decimals (INVALID_AMOUNT otherwise)',
  })
  @IsDecimalAmount()
  amount!: string;

  @ApiPropertyOptional({
    enum: QUOTE_NETWORKS,
    description: 'Devnet chains are testnets; a chain of the other network is UNKNOWN_CHAIN',
  })
  @IsOptional()
  @IsIn(QUOTE_NETWORKS)
  network?: QuoteNetwork;

  @ApiPropertyOptional({
    minimum: 0,
    maximum: 5000,
    description:
      "Slippage in basis points, applied to each swap leg's minAmountOut. Omitted: automatic, per route from its price impact and pool depth, within 30-300 bps per swap leg (the route's slippageBps and slippageSource say what was used)",
  })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(5000)
  slippageBps?: number;

  @ApiPropertyOptional({ description: 'Destination wallet address (EVM or Solana, checked against toChain)' })
  @IsOptional()
  @IsWalletAddress()
  recipient?: string;
}
