import { Allow, IsOptional } from 'class-validator';
import { IsNestedObject, IsOneOf } from './signing-formats';
import {
  BitcoinStepSpec,
  CosmosTxSpec,
  NobleForwardingSpec,
  SigningApproveSpec,
  SigningCall,
  SigningWaitForSpec,
  SOLANA_STEP_SPECS,
  SolanaStepSpec,
} from './signing-step-specs';
import {
  BitcoinFeeWalletSponsorship,
  CosmosFeeGrantSponsorship,
  CoveredTransactionSponsorship,
  Eip2612PermitSponsorship,
  Permit2IntentSponsorship,
  SolanaFeePayerSponsorship,
  SponsoredStepSpec,
} from './signing-sponsorship';

/**
 * What a signing step asks the wallet to sign, one variant per family and kind of payload, named by
 * `family`:
 *  - `evm-transaction`: an EVM transaction making `call` (an `approve` step names the allowance it
 *    grants); sponsored, only as a covered transaction;
 *  - `evm-typed-data`: EIP-712 typed data the user signs for a gas-sponsored step (`sponsored`:
 *    an EIP-2612 permit or a Permit2 intent), no call;
 *  - `solana-transaction`: a Solana transaction (`solana`), sponsored by the service's fee payer;
 *  - `bitcoin-psbt`: a Bitcoin PSBT (`bitcoin`), sponsored by the service's fee wallet;
 *  - `cosmos-sign-direct`: a Cosmos transaction of `cosmos`'s messages, its fee the service's fee
 *    granter's.
 * Any step can wait for a balance first (`waitFor`). Each variant is validated by its own class
 * (SIGNING_STEP_VARIANTS): a field of another variant is not part of it, a sponsorship mode that
 * does not pay it is refused, a `family` naming no variant is refused on `family`. A new variant
 * (a Cosmos transaction) is one class here and one line in SIGNING_STEP_VARIANTS.
 */

/**
 * A variant whose chain's family builds the payload from one field of its own (an EVM call, a
 * Solana, Bitcoin or Cosmos spec) names that field in a static `specField`: the family's client is
 * handed it, and null in every other variant's field (SigningStepSpecFields, stepSpecFieldsOf).
 * EIP-712 typed data has none (its relayer's call is built from `sponsored`).
 */

/** What every variant carries: its family (the variant's class was chosen by it), and the balance it may wait for. */
abstract class SigningStepVariant {
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

export class SolanaTransactionStep extends SigningStepVariant {
  declare family: 'solana-transaction';
  static readonly specField = 'solana';

  /** What the transaction does (see SolanaStepSpec). */
  @IsOneOf('kind', SOLANA_STEP_SPECS)
  solana!: SolanaStepSpec;

  @IsOptional()
  @IsOneOf('mode', { 'solana-fee-payer': SolanaFeePayerSponsorship })
  sponsored?: SponsoredStepSpec & { mode: 'solana-fee-payer' };
}

export class BitcoinPsbtStep extends SigningStepVariant {
  declare family: 'bitcoin-psbt';
  static readonly specField = 'bitcoin';

  /** What the transaction does (see BitcoinStepSpec). */
  @IsNestedObject(() => BitcoinStepSpec)
  bitcoin!: BitcoinStepSpec;

  @IsOptional()
  @IsOneOf('mode', { 'bitcoin-fee-wallet': BitcoinFeeWalletSponsorship })
  sponsored?: SponsoredStepSpec & { mode: 'bitcoin-fee-wallet' };
}

export class CosmosSignDirectStep extends SigningStepVariant {
  declare family: 'cosmos-sign-direct';
  static readonly specField = 'cosmos';

  /** What the transaction does (see CosmosTxSpec). */
  @IsNestedObject(() => CosmosTxSpec)
  cosmos!: CosmosTxSpec;

  @IsOptional()
  @IsOneOf('mode', { 'cosmos-fee-grant': CosmosFeeGrantSponsorship })
  sponsored?: SponsoredStepSpec & { mode: 'cosmos-fee-grant' };
}

/** The class that validates each variant of SigningStep, by its `family`. */
export const SIGNING_STEP_VARIANTS = {
  'evm-transaction': EvmTransactionStep,
  'evm-typed-data': EvmTypedDataStep,
  'solana-transaction': SolanaTransactionStep,
  'bitcoin-psbt': BitcoinPsbtStep,
  'cosmos-sign-direct': CosmosSignDirectStep,
} satisfies Record<string, new () => SigningStepVariant>;

export type SigningStep = InstanceType<(typeof SIGNING_STEP_VARIANTS)[keyof typeof SIGNING_STEP_VARIANTS]>;
export type SigningStepFamily = SigningStep['family'];
export const SIGNING_STEP_FAMILIES = Object.keys(SIGNING_STEP_VARIANTS) as readonly SigningStepFamily[];

type SigningStepVariants = typeof SIGNING_STEP_VARIANTS;
type SpecFieldOf<Variant> = Variant extends { readonly specField: infer Field extends string }
  ? Field
  : never;
type SpecOf<Variant, Field extends string> = Variant extends new () => infer Step
  ? Field extends keyof Step
    ? Step[Field]
    : never
  : never;

/**
 * What a step asks its chain's family to build a payload from: every variant's own field (`call`,
 * `solana`, `bitcoin`, `cosmos`), the step's own set and the others null (absent reads as null).
 */
export type SigningStepSpecFields = {
  [Family in keyof SigningStepVariants as SpecFieldOf<SigningStepVariants[Family]>]?: SpecOf<
    SigningStepVariants[Family],
    SpecFieldOf<SigningStepVariants[Family]>
  > | null;
};

/** Every variant's own field, in the order of SIGNING_STEP_VARIANTS. */
const SIGNING_STEP_SPEC_FIELDS: readonly string[] = Object.values(SIGNING_STEP_VARIANTS).flatMap((variant) =>
  'specField' in variant ? [variant.specField] : [],
);

/** The spec fields of `step`: its variant's own field as it is, every other variant's null. */
export function stepSpecFieldsOf(step: SigningStep): SigningStepSpecFields {
  const own = (SIGNING_STEP_VARIANTS[step.family] as { specField?: string }).specField;
  return Object.fromEntries(
    SIGNING_STEP_SPEC_FIELDS.map((field) => [
      field,
      field === own ? (step as unknown as Record<string, unknown>)[field] : null,
    ]),
  ) as SigningStepSpecFields;
}

/** A property holding a SigningStep, validated as the variant its `family` names. */
export function IsSigningStep(): PropertyDecorator {
  return IsOneOf('family', SIGNING_STEP_VARIANTS);
}
