import { Allow, IsOptional } from 'class-validator';
import { IsNestedObject } from './signing-formats';
import { NobleForwardingSpec, SigningWaitForSpec } from './signing-step-specs';

/**
 * What every variant of SigningStep carries: its family (the variant's class was chosen by it), and
 * the balance it may wait for. A variant whose chain's family builds the payload from one field of
 * its own (an EVM call, a Solana, Bitcoin or Cosmos spec) names that field in a static `specField`:
 * the family's client is handed it, and null in every other variant's field (SigningStepSpecFields,
 * stepSpecFieldsOf). EIP-712 typed data has none (its relayer's call is built from `sponsored`).
 * Each family's variants extend it in the family's folder (`families/<family>/<family>-steps.ts`).
 */
export abstract class SigningStepVariant {
  @Allow()
  family!: string;

  @IsOptional()
  @IsNestedObject(() => SigningWaitForSpec)
  waitFor?: SigningWaitForSpec;

  /** A Noble forwarding account the step pays, registered by the service before the step is issued. */
  @IsOptional()
  @IsNestedObject(() => NobleForwardingSpec)
  nobleForwarding?: NobleForwardingSpec;
}

/**
 * What a family's steps module registers in SIGNING_STEP_VARIANTS (signing-steps.ts): the class of
 * each of its step variants, by `family`, and the class of each of its sponsorship modes, by `mode`.
 */
export interface FamilySteps {
  variants: Record<string, new () => SigningStepVariant>;
  sponsorships: Record<string, new () => object>;
}
