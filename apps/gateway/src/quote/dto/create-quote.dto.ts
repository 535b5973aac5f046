import { ApiExtraModels, ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsInt,
  IsOptional,
  Max,
  Min,
  ValidateBy,
  ValidateNested,
} from 'class-validator';
import { IntegratorFeeShare, MAX_INTEGRATOR_FEE_BPS, MAX_INTEGRATOR_FEE_RECIPIENTS } from '@swapgw/contracts';
import { SwapTermsDto } from '../../common/dto/swap-terms.dto';
import {
  BOOLEAN_LIKE_VALUES,
  IsBooleanLikeQuery,
  IsIntegratorFeeRecipient,
  IsTokenRefOverride,
  IsWalletAddress,
} from '../../common/validation';

/** One recipient of the integrator's fee. */
export class IntegratorFeeDto implements IntegratorFeeShare {
  @ApiProperty({
    type: 'integer',
    minimum: 0,
    maximum: MAX_INTEGRATOR_FEE_BPS,
    example: 50,
    description: `Basis points of the input amount (0 to ${MAX_INTEGRATOR_FEE_BPS}; every recipient's together at most ${MAX_INTEGRATOR_FEE_BPS})`,
  })
  @IsInt()
  @Min(0)
  @Max(MAX_INTEGRATOR_FEE_BPS)
  bps!: number;

  @ApiProperty({
    description:
      "Address of the source chain (fromChain) that receives the fee (INVALID_ADDRESS otherwise); or, for THORChain routes, a THORChain affiliate (a THORName or thor1 address) that THORChain pays through its memo's affiliate fields (every other provider answers INTEGRATOR_FEE_NOT_SUPPORTED)",
  })
  @IsIntegratorFeeRecipient()
  recipient!: string;
}

/** Every share's bps together at most MAX_INTEGRATOR_FEE_BPS. */
const IsWithinIntegratorFeeCap = (): PropertyDecorator =>
  ValidateBy({
    name: 'isWithinIntegratorFeeCap',
    validator: {
      validate: (value) =>
        !Array.isArray(value) ||
        value.reduce((sum: number, share: { bps?: unknown }) => sum + (Number(share?.bps) || 0), 0) <=
          MAX_INTEGRATOR_FEE_BPS,
      defaultMessage: () => `$property bps must add up to at most ${MAX_INTEGRATOR_FEE_BPS}`,
    },
  });

/** Body of POST /quote: the swap terms, and token references that may stand in for the symbols. */
@ApiExtraModels(IntegratorFeeDto)
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
      'The wallet that will sign (an address of fromChain: EVM, Solana, Bitcoin or Cosmos (bech32 of the chain prefix); else 400 INVALID_ADDRESS). With it, each route carries `issues`: ' +
      'the first leg checked against this wallet before anything is signed (balance, allowance, simulation). Without it nothing is checked and no route has `issues`',
  })
  @IsOptional()
  @IsWalletAddress()
  userAddress?: string;
  /**
   * One recipient as an object, or up to MAX_INTEGRATOR_FEE_RECIPIENTS as an array; always an array
   * once validated. Absent: the API key's default fee, if the operator set one; `[]` or bps 0: none.
   */
  @ApiPropertyOptional({
    oneOf: [
      { $ref: getSchemaPath(IntegratorFeeDto) },
      {
        type: 'array',
        items: { $ref: getSchemaPath(IntegratorFeeDto) },
        maxItems: MAX_INTEGRATOR_FEE_RECIPIENTS,
      },
    ],
    description:
      `The integrator's fee, taken from the input amount on the source chain: one { bps, recipient }, or an array of up to ${MAX_INTEGRATOR_FEE_RECIPIENTS} ` +
      `whose bps add up to at most ${MAX_INTEGRATOR_FEE_BPS}. Omitted: the API key's default fee, if the operator set one; [] or bps 0: no fee. ` +
      'Each route reports it in integratorFee, its expectedAmountOut and minAmountOut net of it. Paid in the first transaction on fromChain: ' +
      "EVM (the SwapGatewayRouter), Solana (a transfer per recipient) or Bitcoin (an output per recipient in the PSBT; each share at least 546 sat, else 400 VALIDATION_FAILED); on THORChain routes a recipient that is a THORName or thor1 address is paid by THORChain (its memo's affiliate fields)",
  })
  @IsOptional()
  @Type(() => IntegratorFeeDto)
  @Transform(({ value }: { value: unknown }) =>
    value !== null && typeof value === 'object' && !Array.isArray(value) ? [value] : value,
  )
  @IsArray()
  @ArrayMaxSize(MAX_INTEGRATOR_FEE_RECIPIENTS)
  @ValidateNested({ each: true })
  @IsWithinIntegratorFeeCap()
  integratorFee?: IntegratorFeeDto[];
}

/** Query of POST /quote: `debug` adds per-provider outcomes (ok, no route, failed, timed out). */
export class CreateQuoteQuery {
  @ApiPropertyOptional({ enum: BOOLEAN_LIKE_VALUES })
  @IsOptional()
  @IsBooleanLikeQuery()
  debug?: boolean;
}
