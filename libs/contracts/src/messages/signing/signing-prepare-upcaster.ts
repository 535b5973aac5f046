import { SigningCommandTypes } from './signing-message-types';
import type { SigningStep } from './signing-steps';

/**
 * The envelope version of `signing.prepare` that carries the step as `step`. Version 1 had the
 * step's fields flat on the command (`call`, `solana`, `bitcoin`, `approve`, `waitFor`,
 * `sponsored`, and from issue 32 on `family`); operators replay topics and outboxes hold what was
 * written before an upgrade, so version 1 is still read: upcast on arrival, at the consumer.
 */
export const SIGNING_PREPARE_VERSION = 2;

/** A step's fields as they sat flat on a version-1 command (and in the planner's and signer's columns before issue 32). */
const FLAT_STEP_FIELDS = ['call', 'solana', 'bitcoin', 'cosmos', 'approve', 'waitFor', 'sponsored'] as const;
type FlatStepField = (typeof FLAT_STEP_FIELDS)[number];
export type FlatStepFields = { family?: unknown } & Partial<Record<FlatStepField, unknown>>;

/**
 * The flat fields each family took. Written out, frozen: this is what version 1 was, whatever the
 * union becomes.
 */
const FLAT_FIELDS_OF: Readonly<Record<string, readonly FlatStepField[]>> = {
  'evm-transaction': ['call', 'approve', 'waitFor', 'sponsored'],
  'evm-typed-data': ['approve', 'waitFor', 'sponsored'],
  'solana-transaction': ['solana', 'waitFor', 'sponsored'],
  'bitcoin-psbt': ['bitcoin', 'waitFor', 'sponsored'],
  // Never a version-1 family: how the planner writes a Cosmos LegStepSpec out.
  'cosmos-sign-direct': ['cosmos', 'waitFor', 'sponsored'],
};

/** The sponsorships that made a flat step typed data. */
const TYPED_DATA_MODES: readonly unknown[] = ['eip2612-permit', 'permit2-intent'];

/** A field is there: neither absent nor null (as class-validator's IsOptional has it). */
const has = (fields: FlatStepFields, field: FlatStepField): boolean =>
  fields[field] !== undefined && fields[field] !== null;

const modeOf = (sponsored: unknown): unknown =>
  typeof sponsored === 'object' && sponsored !== null ? (sponsored as { mode?: unknown }).mode : undefined;

/**
 * The family of flat step fields: the `family` they name, else (a command sent before `family`
 * existed) the one the fields tell: a `bitcoin` or `solana` spec, typed data when the sponsorship
 * is a permit or an intent, else an EVM transaction.
 */
function familyOfFlatFields(fields: FlatStepFields): string {
  if (typeof fields.family === 'string') return fields.family;
  if (has(fields, 'bitcoin')) return 'bitcoin-psbt';
  if (has(fields, 'cosmos')) return 'cosmos-sign-direct';
  if (has(fields, 'solana')) return 'solana-transaction';
  if (has(fields, 'sponsored') && TYPED_DATA_MODES.includes(modeOf(fields.sponsored)))
    return 'evm-typed-data';
  return 'evm-transaction';
}

/**
 * The step that flat fields describe, as its variant of SigningStep: its family (named or told by
 * its fields) and the fields of that family that are there. Also how the planner writes a step out
 * of a family's LegStepSpec, whose fields are flat. A family naming no variant keeps every field,
 * and is refused when the step is validated.
 */
export function signingStepOf(fields: FlatStepFields): SigningStep {
  const family = familyOfFlatFields(fields);
  const step: Record<string, unknown> = { family };
  for (const field of FLAT_FIELDS_OF[family] ?? FLAT_STEP_FIELDS) {
    if (has(fields, field)) step[field] = fields[field];
  }
  // Never a version-1 field: a step of any family may pay a Noble forwarding account.
  const forwarding = (fields as { nobleForwarding?: unknown }).nobleForwarding;
  if (forwarding !== undefined && forwarding !== null) step.nobleForwarding = forwarding;
  return step as unknown as SigningStep;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Turns a version-1 `signing.prepare` envelope into a version-2 one: the header fields stay, the
 * step's fields move into `step`. Anything else (another type, version 2, not an envelope) is
 * returned as it is, for the consumer to validate.
 */
export function upcastSigningPrepare(message: unknown): unknown {
  if (!isRecord(message) || message.type !== SigningCommandTypes.prepare || message.version !== 1)
    return message;
  if (!isRecord(message.payload)) return message;
  const { family: _family, ...header } = message.payload;
  for (const field of FLAT_STEP_FIELDS) delete header[field];
  return {
    ...message,
    version: SIGNING_PREPARE_VERSION,
    payload: { ...header, step: signingStepOf(message.payload) },
  };
}
