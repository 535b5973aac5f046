import { Type } from 'class-transformer';
import {
  IsIn,
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  IsUUID,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { RoutePlan } from '../quote/route-plan';
import { GAS_PAYMENTS, GasPayment, PERMIT_TYPES, PermitType, SwapStatus } from './swap-message-types';
import { BITCOIN_PUBLIC_KEY, WALLET_ADDRESS } from '../chain-formats';

const BYTES32 = /^0x[0-9a-fA-F]{64}$/;

/** EIP-2612 permit signature, expanded form. */
export class PermitSignature {
  @IsInt()
  @Min(0)
  @Max(28)
  v!: number;

  @Matches(BYTES32, { message: 'r must be 0x-prefixed 32 bytes' })
  r!: string;

  @Matches(BYTES32, { message: 's must be 0x-prefixed 32 bytes' })
  s!: string;
}

/** EIP-2098 compact permit signature. */
export class PermitSignatureCompact {
  @Matches(BYTES32, { message: 'r must be 0x-prefixed 32 bytes' })
  r!: string;

  @Matches(BYTES32, { message: 'vs must be 0x-prefixed 32 bytes' })
  vs!: string;
}

/**
 * The `permit2` object of a build (ours: the spec names the field only). The user signed a Permit2
 * `PermitTransferFrom` of {token: the first leg's input, amount: its amountIn} for spender = the
 * chain's SwapGatewayRouter with this nonce and deadline.
 */
export class Permit2Payload {
  /** uint256 as a decimal string: any nonce the owner has not used (Permit2 nonces are unordered). */
  @Matches(/^(0|[1-9][0-9]{0,77})$/, { message: 'nonce must be a uint256 decimal string' })
  nonce!: string;

  /** Milliseconds since epoch (signed as floor(ms / 1000) seconds); defaults to permitDeadline. */
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(Number.MAX_SAFE_INTEGER)
  deadline?: number;

  /** The signature as 0x-hex, 65 bytes (r, s, v) or 64 (EIP-2098), instead of permitSignature(Compact). */
  @IsOptional()
  @Matches(/^0x([0-9a-fA-F]{128}|[0-9a-fA-F]{130})$/, {
    message: 'signature must be 0x-prefixed 65 or 64 bytes',
  })
  signature?: string;
}

/**
 * `swap.build`: a durable command on swap.commands (gateway and limit-order-service →
 * execution-planner). Idempotent on `swapId`, which the gateway derives from owner +
 * Idempotency-Key and limit-order-service from the order's trigger, so a retry maps to the same swap.
 * The verdict is the swap's: written by the planner and told on swap.events.
 * Errors: QUOTE_NOT_FOUND (404), UNKNOWN_ROUTE (400), QUOTE_EXPIRED (410), VALIDATION_FAILED (400,
 * e.g. a permit without signature), SIGNING_SURFACE_UNAVAILABLE (503), IDEMPOTENCY_CONFLICT (409,
 * same swapId with another quote/route/address).
 */
export class SwapBuildRequest {
  @IsUUID()
  swapId!: string;

  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  owner!: string;

  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  quoteId!: string;

  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  routeId!: string;

  /** The wallet that signs the source-chain steps (EVM address, or Solana base58 for a Solana source). */
  @Matches(WALLET_ADDRESS, {
    message: 'userAddress must be an EVM address, a Solana public key or a Bitcoin address',
  })
  userAddress!: string;

  /**
   * The public key of `userAddress` (hex) when its wallet must be named by key: a Bitcoin Taproot
   * (P2TR) or nested-SegWit (P2SH-P2WPKH) address. Checked against the address by the planner.
   */
  @IsOptional()
  @Matches(BITCOIN_PUBLIC_KEY, { message: 'userPublicKey must be a 32- or 33-byte public key in hex' })
  userPublicKey?: string;

  /**
   * The destination wallet. On a cross-family route (EVM ⇄ Solana) it is required (here or in the
   * quote) and also signs the steps on the destination chain, if any.
   */
  @IsOptional()
  @Matches(WALLET_ADDRESS, {
    message: 'recipient must be an EVM address, a Solana public key or a Bitcoin address',
  })
  recipient?: string;

  @IsOptional()
  @IsIn(PERMIT_TYPES)
  permitType?: PermitType;

  /** Who pays the gas (see GasPayment); absent: sponsored, unless the build carries a permit signature. */
  @IsOptional()
  @IsIn(GAS_PAYMENTS)
  gasPayment?: GasPayment;

  /** Milliseconds since epoch, as the spec says; the on-chain permit deadline is floor(ms / 1000). */
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(Number.MAX_SAFE_INTEGER)
  permitDeadline?: number;

  @IsOptional()
  @ValidateNested()
  @Type(() => PermitSignature)
  permitSignature?: PermitSignature;

  @IsOptional()
  @ValidateNested()
  @Type(() => PermitSignatureCompact)
  permitSignatureCompact?: PermitSignatureCompact;

  @IsOptional()
  @ValidateNested()
  @Type(() => Permit2Payload)
  permit2?: Permit2Payload;

  /**
   * The route's executable plan, as quote-service gave it with the quote (QuoteResult.routePlans):
   * the planner plans from it without asking quote-service again. Its quoteId and routeId must be
   * the request's.
   */
  @ValidateNested()
  @Type(() => RoutePlan)
  plan!: RoutePlan;

  /**
   * When the build was accepted (ms): the quote's expiry is judged against it, so a command that
   * waited in Kafka while the planner was busy or down is not refused for the wait.
   */
  @IsOptional()
  @IsInt()
  @Min(0)
  acceptedAtMs?: number;
}

export interface SwapBuildResult {
  swapId: string;
  status: SwapStatus;
  stepCount: number;
  /** False when the swapId already existed (a retried build): nothing new was created. */
  created: boolean;
}

/**
 * `swap.signing.refresh` (swap.requests, gateway → planner): the payload of the current step
 * expired; ask signer-surface for a fresh one. Owner-scoped: another owner's swap is SWAP_NOT_FOUND.
 * Errors: SWAP_NOT_FOUND, EXECUTION_TERMINAL.
 */
export class SwapSigningRefreshRequest {
  @IsString()
  @IsNotEmpty()
  swapId!: string;

  @IsString()
  @IsNotEmpty()
  owner!: string;
}

export interface SwapSigningRefreshResult {
  swapId: string;
  /** True when a refresh was asked now; false when one is already under way or the step moved on. */
  refreshRequested: boolean;
  status: SwapStatus;
}
