import { Type } from 'class-transformer';
import { IsBoolean, IsInt, IsOptional, Matches, Min, ValidateNested } from 'class-validator';
import { BASE_UNITS_AMOUNT } from './quote-formats';
import { RouteLeg, RoutePlan } from './route-plan';

/**
 * `quote.reprice`: price one leg of a served route plan again, with the provider that quoted it,
 * against the chain or the provider's API as it is now (the gateway, before it sends a build).
 */
export class RepriceRouteLegRequest {
  @ValidateNested()
  @Type(() => RoutePlan)
  plan!: RoutePlan;

  /** The leg to price again (0: the first leg, the one a build spends first). */
  @IsInt()
  @Min(0)
  legIndex!: number;
}

/**
 * The answer of `quote.reprice`, in base units of the route's tokenOut. `repriced` false: the leg
 * has nothing to re-price (a bridge paying a fixed amount) and the figures are the quoted ones.
 * `leg` is the leg as the provider gives it now (same path, same slippage, a new minimum; an
 * aggregator's transaction rebuilt), absent when the provider no longer has a route for it
 * (`expectedAmountOut` is then 0).
 */
export class RepriceRouteLegResult {
  @IsInt()
  @Min(0)
  legIndex!: number;

  @IsBoolean()
  repriced!: boolean;

  @IsOptional()
  @ValidateNested()
  @Type(() => RouteLeg)
  leg?: RouteLeg;

  /** The route's output at the leg's new price (the later legs scaled by the same ratio). */
  @Matches(BASE_UNITS_AMOUNT)
  expectedAmountOut!: string;

  /** The route's minimum with the leg's new minimum (what a build with the fresh leg binds). */
  @Matches(BASE_UNITS_AMOUNT)
  minAmountOut!: string;

  @Matches(BASE_UNITS_AMOUNT)
  quotedExpectedAmountOut!: string;

  @Matches(BASE_UNITS_AMOUNT)
  quotedMinAmountOut!: string;

  /** The leg's new output is below the minimum it was quoted with: a payload bound to the quote would revert. */
  @IsBoolean()
  movedBeyondSlippage!: boolean;
}
