import { registerDecorator, ValidationArguments, ValidationOptions } from 'class-validator';
import {
  BitcoinStepSpec,
  SigningApproveSpec,
  SigningCall,
  SigningWaitForSpec,
  SolanaStepSpec,
} from './signing-step-specs';
import { SponsoredStepSpec, SponsorshipMode } from './signing-sponsorship';

/**
 * What a signing step asks the wallet to sign, one variant per family of payload:
 *  - `evm-transaction`: an EVM transaction making `call` (an `approve` step names the allowance it
 *    grants); sponsored, only as a covered transaction;
 *  - `evm-typed-data`: EIP-712 typed data the user signs for a gas-sponsored step (`sponsored`:
 *    an EIP-2612 permit or a Permit2 intent), no call;
 *  - `solana-transaction`: a Solana transaction (`solana`), sponsored by the service's fee payer;
 *  - `bitcoin-psbt`: a Bitcoin PSBT (`bitcoin`), sponsored by the service's fee wallet.
 * Any step can wait for a balance first (`waitFor`).
 */
export const SIGNING_STEP_FAMILIES = [
  'evm-transaction',
  'evm-typed-data',
  'solana-transaction',
  'bitcoin-psbt',
] as const;
export type SigningStepFamily = (typeof SIGNING_STEP_FAMILIES)[number];

interface StepCommon {
  waitFor?: SigningWaitForSpec;
}

export interface EvmTransactionStep extends StepCommon {
  family: 'evm-transaction';
  call: SigningCall;
  approve?: SigningApproveSpec;
  sponsored?: SponsoredStepSpec & { mode: 'covered-transaction' };
}

export interface EvmTypedDataStep extends StepCommon {
  family: 'evm-typed-data';
  /** The allowance an `approve` step's permit grants (the step is skipped when it is there). */
  approve?: SigningApproveSpec;
  sponsored: SponsoredStepSpec & { mode: 'eip2612-permit' | 'permit2-intent' };
}

export interface SolanaTransactionStep extends StepCommon {
  family: 'solana-transaction';
  solana: SolanaStepSpec;
  sponsored?: SponsoredStepSpec & { mode: 'solana-fee-payer' };
}

export interface BitcoinPsbtStep extends StepCommon {
  family: 'bitcoin-psbt';
  bitcoin: BitcoinStepSpec;
  sponsored?: SponsoredStepSpec & { mode: 'bitcoin-fee-wallet' };
}

export type SigningStep = EvmTransactionStep | EvmTypedDataStep | SolanaTransactionStep | BitcoinPsbtStep;

/** The fields of a step besides its family, as they sit flat on a `signing.prepare` command. */
export const SIGNING_STEP_FIELDS = ['call', 'solana', 'bitcoin', 'approve', 'waitFor', 'sponsored'] as const;
type StepField = (typeof SIGNING_STEP_FIELDS)[number];

interface StepVariantRule {
  /** The field the variant cannot go without. */
  required: StepField;
  /** Every field it may carry (`required` included). */
  fields: readonly StepField[];
  /** The sponsorship modes that pay its gas. */
  modes: readonly SponsorshipMode[];
}

/** Each variant of SigningStep as the arrival check reads it. */
export const SIGNING_STEP_VARIANTS: Readonly<Record<SigningStepFamily, StepVariantRule>> = {
  'evm-transaction': {
    required: 'call',
    fields: ['call', 'approve', 'waitFor', 'sponsored'],
    modes: ['covered-transaction'],
  },
  'evm-typed-data': {
    required: 'sponsored',
    fields: ['approve', 'waitFor', 'sponsored'],
    modes: ['eip2612-permit', 'permit2-intent'],
  },
  'solana-transaction': {
    required: 'solana',
    fields: ['solana', 'waitFor', 'sponsored'],
    modes: ['solana-fee-payer'],
  },
  'bitcoin-psbt': {
    required: 'bitcoin',
    fields: ['bitcoin', 'waitFor', 'sponsored'],
    modes: ['bitcoin-fee-wallet'],
  },
};

type StepFields = { family?: unknown } & Partial<Record<StepField, unknown>>;

/** Whether a step field is there (null counts as absent, as class-validator's IsOptional has it). */
export const hasStepField = (step: StepFields, field: StepField): boolean =>
  step[field] !== undefined && step[field] !== null;

const isFamily = (value: unknown): value is SigningStepFamily =>
  (SIGNING_STEP_FAMILIES as readonly unknown[]).includes(value);

const modeOf = (sponsored: unknown): unknown =>
  typeof sponsored === 'object' && sponsored !== null ? (sponsored as { mode?: unknown }).mode : undefined;

/**
 * The variant of a step: its `family` when it names one, else (a command sent before `family`
 * existed) the one its fields tell: a `bitcoin` or `solana` spec, typed data when the sponsorship
 * is a permit or an intent, else an EVM transaction.
 */
export function signingStepFamilyOf(step: StepFields): SigningStepFamily {
  if (isFamily(step.family)) return step.family;
  if (hasStepField(step, 'bitcoin')) return 'bitcoin-psbt';
  if (hasStepField(step, 'solana')) return 'solana-transaction';
  if (
    hasStepField(step, 'sponsored') &&
    SIGNING_STEP_VARIANTS['evm-typed-data'].modes.includes(modeOf(step.sponsored) as SponsorshipMode)
  )
    return 'evm-typed-data';
  return 'evm-transaction';
}

/** Whether `field` is one the step's variant requires (the field's own decorators check its content). */
export const requiresStepField = (step: StepFields, field: StepField): boolean =>
  SIGNING_STEP_VARIANTS[signingStepFamilyOf(step)].required === field;

/** Whether a step field is validated: the variant requires it, or it is there. */
export const validatesStepField = (step: StepFields, field: StepField): boolean =>
  requiresStepField(step, field) || hasStepField(step, field);

/** What is wrong with the step's shape for its variant: fields of another variant, a sponsorship that does not pay it. */
export function stepVariantProblems(step: StepFields): string[] {
  if (step.family !== undefined && !isFamily(step.family))
    return [`family must be one of ${SIGNING_STEP_FAMILIES.join(', ')}`];
  const family = signingStepFamilyOf(step);
  const rule = SIGNING_STEP_VARIANTS[family];
  const problems = SIGNING_STEP_FIELDS.filter(
    (field) => hasStepField(step, field) && !rule.fields.includes(field),
  ).map((field) => `a step of family ${family} has no ${field}`);
  const mode = modeOf(step.sponsored);
  if (hasStepField(step, 'sponsored') && !rule.modes.includes(mode as SponsorshipMode))
    problems.push(
      `a step of family ${family} is sponsored as ${rule.modes.join(' or ')}, not ${String(mode)}`,
    );
  return problems;
}

/**
 * On the discriminator: the step is one variant of SigningStep (see stepVariantProblems). The
 * variant's own fields are checked by their decorators (required through requiresStepField).
 */
export function IsSigningStepVariant(options?: ValidationOptions): PropertyDecorator {
  return (target: object, propertyName: string | symbol) =>
    registerDecorator({
      name: 'isSigningStepVariant',
      target: target.constructor,
      propertyName: propertyName as string,
      options,
      validator: {
        validate: (_value: unknown, args: ValidationArguments) =>
          stepVariantProblems(args.object as StepFields).length === 0,
        defaultMessage: (args: ValidationArguments) =>
          stepVariantProblems(args.object as StepFields).join('; '),
      },
    });
}

/** The step a validated `signing.prepare` carries, as its variant. */
export function signingStepOf(command: StepFields): SigningStep {
  const family = signingStepFamilyOf(command);
  const step: Record<string, unknown> = { family };
  for (const field of SIGNING_STEP_VARIANTS[family].fields) {
    if (hasStepField(command, field)) step[field] = command[field];
  }
  return step as unknown as SigningStep;
}
