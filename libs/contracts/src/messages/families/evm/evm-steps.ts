/**
 * The EVM family's step variants. Their specs (SigningCall, SigningApproveSpec) and sponsorships
 * (covered transactions, permits, Permit2 intents) are shared by the suite's messages and stay in
 * signing/; its address form and sponsorship data are in evm-wire.ts.
 */
import { IsOptional } from 'class-validator';
import { IsNestedObject, IsOneOf } from '../../signing/signing-formats';
import { SigningApproveSpec, SigningCall } from '../../signing/signing-step-specs';
import { type FamilySteps, SigningStepVariant } from '../../signing/signing-step-variant';
import {
  CoveredTransactionSponsorship,
  Eip2612PermitSponsorship,
  Permit2IntentSponsorship,
  type SponsoredStepSpec,
} from '../../signing/signing-sponsorship';

export class EvmTransactionStep extends SigningStepVariant {
  declare family: 'evm-transaction';
  static readonly specField = 'call';

  @IsNestedObject(() => SigningCall)
  call!: SigningCall;

  @IsOptional()
  @IsNestedObject(() => SigningApproveSpec)
  approve?: SigningApproveSpec;

  @IsOptional()
  @IsOneOf('mode', { 'covered-transaction': CoveredTransactionSponsorship })
  sponsored?: SponsoredStepSpec & { mode: 'covered-transaction' };
}

export class EvmTypedDataStep extends SigningStepVariant {
  declare family: 'evm-typed-data';

  /** The allowance an `approve` step's permit grants (the step is skipped when it is there). */
  @IsOptional()
  @IsNestedObject(() => SigningApproveSpec)
  approve?: SigningApproveSpec;

  @IsOneOf('mode', {
    'eip2612-permit': Eip2612PermitSponsorship,
    'permit2-intent': Permit2IntentSponsorship,
  })
  sponsored!: SponsoredStepSpec & { mode: 'eip2612-permit' | 'permit2-intent' };
}

/** EVM's step variants and sponsorship modes, registered in SIGNING_STEP_VARIANTS (signing-steps.ts). */
export const evmSteps = {
  variants: { 'evm-transaction': EvmTransactionStep, 'evm-typed-data': EvmTypedDataStep },
  sponsorships: {
    'covered-transaction': CoveredTransactionSponsorship,
    'eip2612-permit': Eip2612PermitSponsorship,
    'permit2-intent': Permit2IntentSponsorship,
  },
} as const satisfies FamilySteps;
