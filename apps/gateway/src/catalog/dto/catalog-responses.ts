import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { ChainView, ListChainsResult, ListPairsResult, ListTokensResult, PairView, TokenView } from '@swapgw/contracts';

export class ChainDto implements ChainView {
  @ApiProperty({ example: 'devnet-a', description: 'Chain identifier: the chain value of quotes and chainRef' }) id!: string;
  @ApiProperty({ example: 'Devnet A' }) name!: string;
}

export class ChainsResponse implements ListChainsResult {
  @ApiProperty({ type: [ChainDto] }) chains!: ChainDto[];
}

export class TokenDto implements TokenView {
  @ApiProperty({ example: 'devnet-a' }) chain!: string;
  @ApiProperty({ example: 'USDC' }) symbol!: string;
  @ApiProperty({ example: 'USD Coin' }) name!: string;
  @ApiProperty({ example: 6 }) decimals!: number;
  @ApiPropertyOptional({ description: 'EVM contract address (absent for native coins and Solana tokens)' }) address?: string;
  @ApiPropertyOptional({ description: 'Solana mint address' }) mint?: string;
  @ApiPropertyOptional({ description: 'Logo URL, when the token list has one' }) logoUrl?: string;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'With debug: source, supported, providers, rank' })
  debug?: TokenView['debug'];
}

export class TokensResponse implements ListTokensResult {
  @ApiProperty({ type: [TokenDto] }) tokens!: TokenDto[];
  @ApiProperty({ type: String, nullable: true, description: 'Cursor of the next page; null on the last page' }) nextCursor!: string | null;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true }) debug?: Record<string, unknown>;
}

export class PairDto implements PairView {
  @ApiProperty({ example: 'devnet-a' }) fromChain!: string;
  @ApiProperty({ example: 'devnet-b' }) toChain!: string;
  @ApiProperty({ example: 'USDC' }) tokenIn!: string;
  @ApiProperty({ example: 'DAI' }) tokenOut!: string;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'With debug: providers and supported' })
  debug?: PairView['debug'];
}

export class PairsResponse implements ListPairsResult {
  @ApiProperty({ type: [PairDto] }) pairs!: PairDto[];
  @ApiProperty({ type: String, nullable: true }) nextCursor!: string | null;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true }) debug?: Record<string, unknown>;
}
