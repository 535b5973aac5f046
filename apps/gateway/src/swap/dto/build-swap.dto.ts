import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsIn,
  IsInt,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import {
  BITCOIN_PUBLIC_KEY,
  GAS_PAYMENTS,
  GasPayment,
  PERMIT_TYPES,
  PermitType,
  USER_PUBLIC_KEY_DESCRIPTION,
} from '@swapgw/contracts';
import { IsDecimalAmount, IsWalletAddress } from '../../common/validation';

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

/**
 * Ours (the spec names `permit2` only): the Permit2 PermitTransferFrom the user signed for the
 * chain's SwapGatewayRouter. Unknown properties are refused (400).
 */
export class Permit2Dto {
  @ApiProperty({
    example: '0',
    pattern: '^(0|[1-9][0-9]{0,77})$',
    description:
      'PermitTransferFrom nonce, uint256 as a decimal string: any nonce the owner has not used (Permit2 nonces are unordered; see nonceBitmap)',
  })
  @Matches(/^(0|[1-9][0-9]{0,77})$/, { message: '$property must be a uint256 decimal string' })
  nonce!: string;

  @ApiPropertyOptional({
    description:
      'PermitTransferFrom deadline in milliseconds since epoch (signed as floor(ms / 1000) seconds); defaults to permitDeadline',
  })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(Number.MAX_SAFE_INTEGER)
  deadline?: number;

  @ApiPropertyOptional({
    pattern: '^0x([0-9a-fA-F]{128}|[0-9a-fA-F]{130})$',
    description:
      'The Permit2 signature as hex (65 bytes r,s,v or 64 bytes EIP-2098), instead of permitSignature / permitSignatureCompact',
  })
  @IsOptional()
  @Matches(/^0x([0-9a-fA-F]{128}|[0-9a-fA-F]{130})$/, {
    message: '$property must be 0x-prefixed 65 or 64 bytes',
  })
  signature?: string;
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
      'Destination wallet address (EVM, Solana, Bitcoin or Cosmos, of the destination chain and its network); defaults to the quote recipient, else userAddress. ' +
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
      'Wallet that signs the source-chain steps (the payload `from`; EVM address, Solana base58, Bitcoin address (bech32 P2WPKH / P2TR or base58 P2SH) or Cosmos account (bech32 of the chain prefix), of the source chain). Required by this service.',
  })
  @IsWalletAddress()
  userAddress!: string;

  /** Ours (the spec has no field for it): see the description; checked by the planner. */
  @ApiPropertyOptional({
    pattern: BITCOIN_PUBLIC_KEY.source,
    example: '02b4632d08485ff1df2db55b9dafd23347d1c47a457072a1e87be26896549a8737',
    description: USER_PUBLIC_KEY_DESCRIPTION,
  })
  @IsOptional()
  @Matches(BITCOIN_PUBLIC_KEY, {
    message: '$property must be a 33-byte compressed or 32-byte x-only public key in hex',
  })
  userPublicKey?: string;

  @ApiPropertyOptional({
    enum: GAS_PAYMENTS,
    description:
      'Who pays the gas. sponsored (the default): the service, on every EVM step: the wallet signs EIP-712 typed data ' +
      "(payload evm-typed-data) that the service's relayers submit, or, where only the wallet's own transaction can work, " +
      "the service first sends it that transaction's maximum fee, so its native balance never drops (docs/gas-sponsorship.md). " +
      'user: the wallet sends every transaction and pays its gas. A build with permitType (or a permit signature) is a user-paid ' +
      'build; permitType together with gasPayment sponsored is 400 VALIDATION_FAILED.',
  })
  @IsOptional()
  @IsIn(GAS_PAYMENTS)
  gasPayment?: GasPayment;

  @ApiPropertyOptional({
    enum: PERMIT_TYPES,
    description:
      'User-paid builds (see gasPayment): how the first leg gets the input token. approve (default): an approve step when the allowance is short. ' +
      "eip2612 / permit2: no approve step; the first leg is ONE call to the chain's SwapGatewayRouter carrying the permit, signed for " +
      'spender = the quote route\'s permit.spender and value/amount = permit.amountBaseUnits (see docs/integrator-guide.md, "Permits", for the typed data). ' +
      'permit2 adds one approve of the token to Permit2 (MaxUint256, once per token) when the allowance to Permit2 is short. ' +
      "Only where the route's permit object is present (EVM ERC-20 first leg); otherwise 400 VALIDATION_FAILED.",
  })
  @IsOptional()
  @IsIn(PERMIT_TYPES)
  permitType?: PermitType;

  @ApiPropertyOptional({
    description:
      'Permit deadline in milliseconds since epoch; signed on chain as floor(ms / 1000) seconds. Required with eip2612; with permit2 unless permit2.deadline is given. In the past → 400',
  })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(Number.MAX_SAFE_INTEGER)
  permitDeadline?: number;

  @ApiPropertyOptional({
    type: PermitSignatureDto,
    description:
      'The permit signature {v, r, s} (EIP-2612 Permit or Permit2 PermitTransferFrom); one signature form only',
  })
  @IsOptional()
  @ValidateNested()
  @Type(() => PermitSignatureDto)
  permitSignature?: PermitSignatureDto;

  @ApiPropertyOptional({
    type: PermitSignatureCompactDto,
    description: 'The permit signature in EIP-2098 form {r, vs}; one signature form only',
  })
  @IsOptional()
  @ValidateNested()
  @Type(() => PermitSignatureCompactDto)
  permitSignatureCompact?: PermitSignatureCompactDto;

  @ApiPropertyOptional({
    type: Permit2Dto,
    description:
      'With permitType permit2 (implied when present): the PermitTransferFrom nonce, and optionally its deadline and signature',
  })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => Permit2Dto)
  permit2?: Permit2Dto;

  @ApiPropertyOptional({
    minimum: WAIT_FOR_TX_REQUEST_MS.min,
    maximum: WAIT_FOR_TX_REQUEST_MS.max,
    default: WAIT_FOR_TX_REQUEST_MS.default,
  })
  @IsOptional()
  @IsInt()
  @Min(WAIT_FOR_TX_REQUEST_MS.min)
  @Max(WAIT_FOR_TX_REQUEST_MS.max)
  waitForTxRequestMs?: number;

  /**
   * Ours (the spec leaves how a client accepts a new price open): after a 409 QUOTE_PRICE_CHANGED,
   * the least route output, in human units of tokenOut, the client accepts. The build re-prices
   * again and, when the price moved beyond the quote's slippage, binds the new price's minimum into
   * the payload if that minimum is at least this; else 409 again with the newer figures.
   */
  @ApiPropertyOptional({
    example: '2950.5',
    description:
      "Accept a price that moved beyond the quote's slippage: the least minAmountOut (human units of tokenOut) the client takes, usually " +
      'error.details.minAmountOut of the 409 QUOTE_PRICE_CHANGED it got. The build then binds the new price (its minAmountOut, never below this ' +
      'value) into the payload; a price that moved further answers 409 QUOTE_PRICE_CHANGED again. Ignored while the price is within slippage.',
  })
  @IsOptional()
  @IsDecimalAmount()
  acceptedMinAmountOut?: string;
}
