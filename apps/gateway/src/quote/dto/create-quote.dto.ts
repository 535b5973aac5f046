import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import { SwapTermsDto } from '../../common/dto/swap-terms.dto';
import {
  BOOLEAN_LIKE_VALUES,
  IsBooleanLikeQuery,
  IsTokenRefOverride,
  IsWalletAddress,
} from '../../common/validation';

/** Body of POST /quote: the swap terms, and token references that may stand in for the symbols. */
export class CreateQuoteDto extends SwapTermsDto {
  @ApiPropertyOptional({
    example: 'eip155:31337:erc20:0x5FbDB2315678afecb367f032d93F642f64180aa3',
    description: 'Input token reference; wins over tokenIn',
  })
  @IsOptional()
  @IsTokenRefOverride()
  tokenRefFromOverride?: string;

  @ApiPropertyOptional({ description: 'Output token reference (same form); wins over tokenOut' })
  @IsOptional()
  @IsTokenRefOverride()
  tokenRefToOverride?: string;

  @ApiPropertyOptional({
    description:
      'The wallet that will sign (an address of fromChain: EVM, Solana or Bitcoin; else 400 INVALID_ADDRESS). With it, each route carries `issues`: ' +
      'the first leg checked against this wallet before anything is signed (balance, allowance, simulation). Without it nothing is checked and no route has `issues`',
  })
  @IsOptional()
  @IsWalletAddress()
  userAddress?: string;
}

/** Query of POST /quote: `debug` adds per-provider outcomes (ok, no route, failed, timed out). */
export class CreateQuoteQuery {
  @ApiPropertyOptional({ enum: BOOLEAN_LIKE_VALUES })
  @IsOptional()
  @IsBooleanLikeQuery()
  debug?: boolean;
}
