import { IsIn, IsInt, IsNotEmpty, IsOptional, IsString, Max, Min } from 'class-validator';
import { SIGNING_STEP_KINDS, SigningStepKind } from './signing-message-types';
import { IsSigningStep, SigningStep } from './signing-steps';

/**
 * `signing.prepare` (signing.commands, planner → signer-surface): build the chain payload of one
 * step. Idempotent on (swapId, stepId): a replay answers nothing new.
 * Answered by one of signing.payload-ready, signing.waiting (then payload-ready later),
 * signing.step-skipped, signing.step-failed, signing.unavailable.
 *
 * The step is `step`, one variant of SigningStep (signing-steps.ts) named by its `family` and
 * validated by that variant's class. Envelope version SIGNING_PREPARE_VERSION (2); the flat
 * commands of version 1 are upcast on arrival (signing-prepare-upcaster.ts).
 */
export class SigningPrepareCommand {
  @IsString()
  @IsNotEmpty()
  swapId!: string;

  /** The planner's id of the step; unique per swap. */
  @IsString()
  @IsNotEmpty()
  stepId!: string;

  /** 1-based position of the step in the swap (the `step.current` shown to the client). */
  @IsInt()
  @Min(1)
  stepIndex!: number;

  /** Total signing steps of the swap (the `step.total` shown to the client). */
  @IsInt()
  @Min(1)
  @Max(64)
  stepCount!: number;

  @IsIn(SIGNING_STEP_KINDS)
  kind!: SigningStepKind;

  /** Chain id as in GET /chains (e.g. `devnet-a`). */
  @IsString()
  @IsNotEmpty()
  chain!: string;

  /** The user's address that will sign and send the transaction (base58 wallet on Solana). */
  @IsString()
  @IsNotEmpty()
  from!: string;

  /** What the wallet signs, as its variant of SigningStep. */
  @IsSigningStep()
  step!: SigningStep;

  /** The API key the swap belongs to: sponsored gas is accounted and budgeted per key. */
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  owner?: string;
}

/**
 * `signing.refresh` (signing.commands): the current payload of the step expired (or is about to);
 * issue a fresh one (new nonce and fees) and supersede the old. Answered by signing.payload-ready
 * (or signing.step-failed / signing.unavailable). Ignored when the step is already submitted or
 * terminal.
 */
export class SigningRefreshCommand {
  @IsString()
  @IsNotEmpty()
  swapId!: string;

  @IsString()
  @IsNotEmpty()
  stepId!: string;
}
