/** The providers that give a quote no route, and why (QuoteResult `unavailableRoutes`). */
import { Type } from 'class-transformer';
import {
  IsArray,
  IsIn,
  IsNotEmpty,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import { HUMAN_AMOUNT } from './quote-formats';

/**
 * Why a provider that was asked gives no route (POST /quote `unavailableRoutes[].reason`), stable:
 *  - `AMOUNT_TOO_LOW` / `AMOUNT_TOO_HIGH`: under the provider's minimum or over its maximum (the
 *    bound in `details` when the provider states it);
 *  - `NO_LIQUIDITY`: the provider trades the tokens but no pool or market gives an output for the amount;
 *  - `PAIR_NOT_SUPPORTED`: the provider does not trade this pair (or a wrap, not a swap);
 *  - `SLIPPAGE_TOO_LOW`: no route fits within the requested slippage;
 *  - `INTEGRATOR_FEE_NOT_SUPPORTED`: the provider builds its own transaction and cannot take the
 *    requested integrator fee in it (too many recipients, a recipient it does not pay, or its answer
 *    did not carry the fee asked for);
 *  - `PROVIDER_UNAVAILABLE`: the provider failed or did not answer in time.
 */
export const UNAVAILABLE_ROUTE_REASONS = [
  'AMOUNT_TOO_LOW',
  'AMOUNT_TOO_HIGH',
  'NO_LIQUIDITY',
  'PAIR_NOT_SUPPORTED',
  'SLIPPAGE_TOO_LOW',
  /** The venue cannot swap one of the tokens: a taxed (fee-on-transfer) token on Uniswap V3. */
  'TOKEN_NOT_SUPPORTED',
  'INTEGRATOR_FEE_NOT_SUPPORTED',
  'PROVIDER_UNAVAILABLE',
] as const;
export type UnavailableRouteReason = (typeof UNAVAILABLE_ROUTE_REASONS)[number];

/**
 * What the provider said besides the reason. A bound (`minAmount`, `maxAmount`) is in human units of
 * `token` on `chain`: the token the limit applies to, which is the bridged token when a swap comes
 * before the bridge (e.g. USDC for WETH → USDC on Solana).
 */
export class UnavailableRouteDetails {
  @IsOptional()
  @Matches(HUMAN_AMOUNT)
  minAmount?: string;

  @IsOptional()
  @Matches(HUMAN_AMOUNT)
  maxAmount?: string;

  @IsOptional()
  @IsString()
  @MaxLength(64)
  token?: string;

  @IsOptional()
  @IsString()
  @MaxLength(64)
  chain?: string;

  /** For people, not for code: the provider's own words. */
  @IsOptional()
  @IsString()
  @MaxLength(500)
  message?: string;
}

/** A provider asked for the quote that gives no route, and why. */
export class UnavailableRoute {
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  provider!: string;

  @IsIn(UNAVAILABLE_ROUTE_REASONS)
  reason!: UnavailableRouteReason;

  @ValidateNested()
  @Type(() => UnavailableRouteDetails)
  details!: UnavailableRouteDetails;
}

/** The `unavailableRoutes` of a quote reply, as its receiver validates them (QuoteResult). */
export class QuoteUnavailableRoutes {
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => UnavailableRoute)
  unavailableRoutes!: UnavailableRoute[];
}
