import { CodedError, ErrorCodes, RoutePlan } from '@swapgw/contracts';

/**
 * A plan whose route charges an integrator fee is refused at build (400 VALIDATION_FAILED, field
 * integratorFee): the steps do not carry the fee transfer on chain yet, and a build that left it
 * out would hand the integrator's share back to the user while the quote said it was paid. A quote
 * with `integratorFee: []` (or bps 0) builds as before.
 */
export function assertIntegratorFeesBuildable(plan: RoutePlan): void {
  const charged = (plan.integratorFees ?? []).filter((fee) => BigInt(fee.amount) > 0n);
  if (charged.length === 0) return;
  throw new CodedError(
    ErrorCodes.VALIDATION_FAILED,
    'Routes with an integrator fee cannot be built yet: the fee transfer is not part of the steps; quote with integratorFee [] to build',
    { field: 'integratorFee', recipients: charged.length },
  );
}
