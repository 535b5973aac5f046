import { CodedError, RoutePlan } from '@swapgw/contracts';
import { assertIntegratorFeesBuildable } from './integrator-fees';

const token = { chain: 'devnet-a', symbol: 'USDC', address: `0x${'11'.repeat(20)}`, decimals: 6 };
const planWith = (integratorFees?: RoutePlan['integratorFees']) => ({ integratorFees }) as RoutePlan;

describe('assertIntegratorFeesBuildable', () => {
  it('lets a plan without a charged fee through', () => {
    expect(() => assertIntegratorFeesBuildable(planWith())).not.toThrow();
    expect(() => assertIntegratorFeesBuildable(planWith([]))).not.toThrow();
    const zero = [{ token, recipient: `0x${'22'.repeat(20)}`, bps: 1, amount: '0' }];
    expect(() => assertIntegratorFeesBuildable(planWith(zero))).not.toThrow();
  });

  it('refuses a plan whose fee the steps would not pay (400 VALIDATION_FAILED, field integratorFee)', () => {
    const fees = [{ token, recipient: `0x${'22'.repeat(20)}`, bps: 50, amount: '125000' }];
    let refusal: unknown;
    try {
      assertIntegratorFeesBuildable(planWith(fees));
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(CodedError);
    expect((refusal as CodedError).code).toBe('VALIDATION_FAILED');
    expect((refusal as CodedError).details).toMatchObject({ field: 'integratorFee' });
  });
});
