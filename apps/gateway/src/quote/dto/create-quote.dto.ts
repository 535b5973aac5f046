import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsNotEmpty, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { QUOTE_NETWORKS, QuoteNetwork } from '@swapgw/contracts';
import { BOOLEAN_LIKE_VALUES, IsBooleanLikeQuery, IsDecimalAmount, IsTokenRefOverride, IsWalletAddress } from '../../common/validation';

/** Body of POST /quote. */
export class CreateQuoteDto {
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

  @ApiProperty({ example: '1.5', description: 'Human amount of tokenIn; at most the token decimals (INVALID_AMOUNT otherwise)' })
  @IsDecimalAmount()
  amount!: string;

  @ApiPropertyOptional({ enum: QUOTE_NETWORKS, description: 'Devnet chains are testnets; a chain of the other network is UNKNOWN_CHAIN' })
  @IsOptional()
  @IsIn(QUOTE_NETWORKS)
  network?: QuoteNetwork;

  @ApiPropertyOptional({ example: 'eip155:31337:erc20:0x5FbDB2315678afecb367f032d93F642f64180aa3', description: 'Input token reference; wins over tokenIn' })
  @IsOptional()
  @IsTokenRefOverride()
  tokenRefFromOverride?: string;

  @ApiPropertyOptional({ description: 'Output token reference (same form); wins over tokenOut' })
  @IsOptional()
  @IsTokenRefOverride()
  tokenRefToOverride?: string;

  @ApiPropertyOptional({ minimum: 0, maximum: 5000, default: 50, description: 'Slippage in basis points, applied to each leg\'s minAmountOut' })
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

/** Query of POST /quote: `debug` adds per-provider outcomes (ok, no route, failed, timed out). */
export class CreateQuoteQuery {
  @ApiPropertyOptional({ enum: BOOLEAN_LIKE_VALUES })
  @IsOptional()
  @IsBooleanLikeQuery()
  debug?: boolean;
}
