/** What quote-service is asked on `quote.requests`: the message types and the quote request (POST /quote) with its integrator fee. */
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { QUOTE_NETWORKS, type QuoteNetwork, TOKEN_REF } from './quote-formats';

/** Message types answered by quote-service on `quote.requests`. */
export const QuoteMessageTypes = {
  create: 'quote.create',
  /** The preflight of one route plan against a wallet (POST /swap/build answers it as `issues`). */
  preflight: 'quote.preflight',
  /** Re-prices one leg of a served route plan against the chain or provider as it is now (POST /swap/build). */
  reprice: 'quote.reprice',
} as const;

/** The most an integrator's fees may add up to on one quote, in basis points of the input amount. */
export const MAX_INTEGRATOR_FEE_BPS = 300;
/** The most recipients one quote's integrator fee may be split between. */
export const MAX_INTEGRATOR_FEE_RECIPIENTS = 5;

/**
 * One recipient's part of an integrator fee: `bps` of the quote's input amount, paid in the input
 * token on the source chain to `recipient` (an address of the source chain).
 */
export class IntegratorFeeShare {
  @IsInt()
  @Min(0)
  @Max(MAX_INTEGRATOR_FEE_BPS)
  bps!: number;

  @IsString()
  @IsNotEmpty()
  @MaxLength(128)
  recipient!: string;
}

/** `quote.create`: the body of POST /quote plus the caller. */
export class CreateQuoteRequest {
  @IsOptional()
  @IsString()
  @MaxLength(200)
  owner?: string;

  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  fromChain!: string;

  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  toChain!: string;

  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  tokenIn!: string;

  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  tokenOut!: string;

  @IsString()
  @MaxLength(100)
  amount!: string;

  @IsOptional()
  @IsIn(QUOTE_NETWORKS)
  network?: QuoteNetwork;

  @IsOptional()
  @Matches(TOKEN_REF)
  tokenRefFromOverride?: string;

  @IsOptional()
  @Matches(TOKEN_REF)
  tokenRefToOverride?: string;

  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(5000)
  slippageBps?: number;

  @IsOptional()
  @IsString()
  @MaxLength(128)
  recipient?: string;

  /**
   * The wallet that will sign (an address of fromChain's family): when present, each route carries
   * `issues`, the preflight of its first leg against this wallet (balance, allowance, simulation).
   */
  @IsOptional()
  @IsString()
  @MaxLength(128)
  userAddress?: string;

  /**
   * The integrator's fee, one share per recipient (the gateway turns a single object into one
   * share and fills in the API key's default when the request has none); empty or absent: no fee.
   */
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_INTEGRATOR_FEE_RECIPIENTS)
  @ValidateNested({ each: true })
  @Type(() => IntegratorFeeShare)
  integratorFee?: IntegratorFeeShare[];

  /**
   * The API key's default fee (set by the operator), used when `integratorFee` is absent: only its
   * shares whose recipient is an address of the source chain apply, so one default can name a
   * recipient per chain family.
   */
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_INTEGRATOR_FEE_RECIPIENTS)
  @ValidateNested({ each: true })
  @Type(() => IntegratorFeeShare)
  defaultIntegratorFee?: IntegratorFeeShare[];

  @IsOptional()
  @IsBoolean()
  debug?: boolean;
}
