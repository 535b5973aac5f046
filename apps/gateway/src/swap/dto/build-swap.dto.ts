import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsNotEmpty, IsObject, IsOptional, IsString, Matches, Max, MaxLength, Min, ValidateNested } from 'class-validator';
import { PERMIT_TYPES, PermitType } from '@swapgw/contracts';
import { IsWalletAddress } from '../../common/validation';

const BYTES32 = /^0x[0-9a-fA-F]{64}$/;

/** Bounds of the build wait (the spec leaves them open): 0 answers async at once. */
export const WAIT_FOR_TX_REQUEST_MS = { min: 0, max: 25_000, default: 8_000 } as const;

export class PermitSignatureDto {
  @ApiProperty({ minimum: 0, maximum: 28 })
  @IsInt()
  @Min(0)
  @Max(28)
  v!: number;

  @ApiProperty({ pattern: BYTES32.source })
  @Matches(BYTES32, { message: '$property must be 0x-prefixed 32 bytes' })
  r!: string;

  @ApiProperty({ pattern: BYTES32.source })
  @Matches(BYTES32, { message: '$property must be 0x-prefixed 32 bytes' })
  s!: string;
}

export class PermitSignatureCompactDto {
  @ApiProperty({ pattern: BYTES32.source })
  @Matches(BYTES32, { message: '$property must be 0x-prefixed 32 bytes' })
  r!: string;

  @ApiProperty({ pattern: BYTES32.source })
  @Matches(BYTES32, { message: '$property must be 0x-prefixed 32 bytes' })
  vs!: string;
}

/** POST /swap/build body. */
export class BuildSwapDto {
  @ApiProperty()
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  quoteId!: string;

  @ApiProperty()
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  routeId!: string;

  /**
   * Either family's form is accepted here; the planner checks it against the route's destination
   * chain (400 INVALID_ADDRESS otherwise).
   */
  @ApiPropertyOptional({
    description:
      'Destination wallet address (EVM or Solana, of the destination chain); defaults to the quote recipient, else userAddress. ' +
      'On an EVM ⇄ Solana route it is required and also signs the destination-chain steps, if any.',
  })
  @IsOptional()
  @IsWalletAddress()
  recipient?: string;

  /**
   * Optional in the spec, required here: every payload needs its `from` (fee payer on Solana), and
   * the service holds no wallets to pick one. Missing → 400 VALIDATION_FAILED. Checked by the
   * planner against the first leg's chain family (400 INVALID_ADDRESS).
   */
  @ApiProperty({
    description:
      'Wallet that signs the source-chain steps (the payload `from`; EVM address or Solana base58, of the source chain family). Required by this service.',
  })
  @IsWalletAddress()
  userAddress!: string;

  @ApiPropertyOptional({ enum: PERMIT_TYPES })
  @IsOptional()
  @IsIn(PERMIT_TYPES)
  permitType?: PermitType;

  @ApiPropertyOptional({ description: 'Permit deadline in milliseconds since epoch; signed on chain as floor(ms / 1000) seconds' })
  @IsOptional()
  @IsInt()
  @Min(0)
  permitDeadline?: number;

  @ApiPropertyOptional({ type: PermitSignatureDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => PermitSignatureDto)
  permitSignature?: PermitSignatureDto;

  @ApiPropertyOptional({ type: PermitSignatureCompactDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => PermitSignatureCompactDto)
  permitSignatureCompact?: PermitSignatureCompactDto;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'Permit2 payload (not supported on the current routes: 400)' })
  @IsOptional()
  @IsObject()
  permit2?: Record<string, unknown>;

  @ApiPropertyOptional({ minimum: WAIT_FOR_TX_REQUEST_MS.min, maximum: WAIT_FOR_TX_REQUEST_MS.max, default: WAIT_FOR_TX_REQUEST_MS.default })
  @IsOptional()
  @IsInt()
  @Min(WAIT_FOR_TX_REQUEST_MS.min)
  @Max(WAIT_FOR_TX_REQUEST_MS.max)
  waitForTxRequestMs?: number;
}
