import { IsOneOf } from './signing-formats';
import type { SigningStepVariant } from './signing-step-variant';
import type { ChainFamily } from '../chain-formats';
import { type BitcoinPsbtSigningPayload, bitcoinSteps } from '../families/bitcoin/bitcoin-steps';
import { type CosmosSignDirectPayload, cosmosSteps } from '../families/cosmos/cosmos-steps';
import { evmSteps } from '../families/evm/evm-steps';
import { type SolanaSigningPayload, solanaSteps } from '../families/solana/solana-steps';
import type { EvmSigningPayload, EvmTypedDataSigningPayload, SIGNING_PAYLOAD_TYPES } from './signing-payload';

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
 * does not pay it is refused, a `family` naming no variant is refused on `family`. A family's
 * variants are classes in its folder (`families/<family>/<family>-steps.ts`), registered in
 * FAMILY_STEPS below with its sponsorship modes' classes.
 */

/**
 * Each family's step variants and sponsorship modes, from its folder: the one table a family's
 * classes are registered in (its address form, sponsorship data and payload types are in
 * FAMILY_WIRE, families/family-wire.ts, which these classes validate against).
 */
const FAMILY_STEPS = {
  evm: evmSteps,
  solana: solanaSteps,
  bitcoin: bitcoinSteps,
  cosmos: cosmosSteps,
} as const satisfies Record<ChainFamily, unknown>;

/** What a wallet is handed to sign, one variant per `type` (SIGNING_PAYLOAD_TYPES), each family's from its folder. */
export type SigningPayload =
  | EvmSigningPayload
  | EvmTypedDataSigningPayload
  | SolanaSigningPayload
  | BitcoinPsbtSigningPayload
  | CosmosSignDirectPayload;

// Every variant's type is listed, and every listed type is a variant's: a mismatch fails to compile here.
type ListedPayloadType = (typeof SIGNING_PAYLOAD_TYPES)[number];
type UnlistedPayloadType = Exclude<SigningPayload['type'], ListedPayloadType>;
type PayloadTypeOfNoVariant = Exclude<ListedPayloadType, SigningPayload['type']>;
const _everyPayloadTypeListed: [UnlistedPayloadType | PayloadTypeOfNoVariant] extends [never] ? true : never =
  true;

type FamilyStepsTable = typeof FAMILY_STEPS;
type UnionToIntersection<Union> = (Union extends unknown ? (value: Union) => void : never) extends (
  value: infer Intersection,
) => void
  ? Intersection
  : never;
type EveryFamilys<Part extends 'variants' | 'sponsorships'> = UnionToIntersection<
  FamilyStepsTable[keyof FamilyStepsTable][Part]
>;
const mergedOf = <Part extends 'variants' | 'sponsorships'>(part: Part) =>
  Object.assign({}, ...Object.values(FAMILY_STEPS).map((steps) => steps[part])) as EveryFamilys<Part>;

/** The class that validates each variant of SigningStep, by its `family` (every family's, in the families' order). */
export const SIGNING_STEP_VARIANTS = mergedOf('variants') satisfies Record<
  string,
  new () => SigningStepVariant
>;

/** The class that validates each mode of sponsorship (every family's, in the families' order). */
export const SPONSORSHIPS = mergedOf('sponsorships');

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
