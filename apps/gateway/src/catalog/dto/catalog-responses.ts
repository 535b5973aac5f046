import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  CHAIN_FAMILIES,
  type ChainFamily,
  type ChainView,
  type ListChainsResult,
  type ListPairsResult,
  type ListTokensResult,
  type PairView,
  type TokenView,
} from '@swapgw/contracts';

export class ChainDto implements ChainView {
  @ApiProperty({
    example: 'devnet-a',
    description: 'Chain identifier: the chain value of quotes and chainRef',
  })
  id!: string;
  @ApiProperty({ example: 'Devnet A' }) name!: string;
  @ApiProperty({
    enum: [...CHAIN_FAMILIES],
    example: 'evm',
    description: 'Chain family: which payload kinds and address formats it uses',
  })
  family!: ChainFamily;
  @ApiProperty({ enum: ['mainnet', 'testnet'], example: 'testnet', description: 'Devnet chains are testnet' })
  network!: 'mainnet' | 'testnet';
  @ApiProperty({
    type: 'integer',
    nullable: true,
    example: 31337,
    description:
      'EVM chain id, as in `payload.transaction.chainId` of EVM payloads; null for Solana, Bitcoin and Cosmos (a Cosmos chain id is `caip2` after `cosmos:`)',
  })
  chainId!: number | null;
  @ApiProperty({ example: 'eip155:31337', description: 'CAIP-2 chain id' }) caip2!: string;
  @ApiProperty({ example: 'ETH', description: 'Symbol of the native coin' }) nativeSymbol!: string;
}

export class ChainsResponse implements ListChainsResult {
  @ApiProperty({ type: [ChainDto] }) chains!: ChainDto[];
}

export class TokenDto implements TokenView {
  @ApiProperty({ example: 'devnet-a' }) chain!: string;
  @ApiProperty({ example: 'USDC' }) symbol!: string;
  @ApiProperty({ example: 'USD Coin' }) name!: string;
  @ApiProperty({ type: 'integer', minimum: 0, example: 6 }) decimals!: number;
  @ApiPropertyOptional({ description: 'EVM contract address (absent for native coins and Solana tokens)' })
  address?: string;
  @ApiPropertyOptional({ description: 'Solana mint address' }) mint?: string;
  @ApiPropertyOptional({
    example: 'uatom',
    description:
      'Cosmos denom (every token of a Cosmos chain, its native coin included): `uatom`, or `ibc/<SHA-256 of the path>` for an IBC voucher',
  })
  denom?: string;
  @ApiPropertyOptional({ description: 'Logo URL, when the token list has one' }) logoUrl?: string;
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: 'With debug: source, supported, providers, rank',
  })
  debug?: TokenView['debug'];
}

export class TokensResponse implements ListTokensResult {
  @ApiProperty({ type: [TokenDto] }) tokens!: TokenDto[];
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Cursor of the next page; null on the last page',
  })
  nextCursor!: string | null;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true }) debug?: Record<string, unknown>;
}

export class PairDto implements PairView {
  @ApiProperty({ example: 'devnet-a' }) fromChain!: string;
  @ApiProperty({ example: 'devnet-b' }) toChain!: string;
  @ApiProperty({ example: 'USDC' }) tokenIn!: string;
  @ApiProperty({ example: 'DAI' }) tokenOut!: string;
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: 'With debug: providers and supported',
  })
  debug?: PairView['debug'];
}

export class PairsResponse implements ListPairsResult {
  @ApiProperty({ type: [PairDto] }) pairs!: PairDto[];
  @ApiProperty({ type: String, nullable: true }) nextCursor!: string | null;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true }) debug?: Record<string, unknown>;
}
