import { Type } from 'class-transformer';
import {
  IsIn,
  IsInt,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  Max,
  Min,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { SIGNING_STEP_KINDS, SigningStepKind } from './signing-message-types';
import {
  BitcoinStepSpec,
  SigningApproveSpec,
  SigningCall,
  SigningWaitForSpec,
  SolanaStepSpec,
} from './signing-step-specs';
import { SponsoredStepSpec } from './signing-sponsorship';
import { IsSigningStepVariant, validatesStepField, SigningStepFamily } from './signing-steps';

/**
 * `signing.prepare` (signing.commands, planner → signer-surface): build the chain payload of one
 * step. Idempotent on (swapId, stepId): a replay answers nothing new.
 * Answered by one of signing.payload-ready, signing.waiting (then payload-ready later),
 * signing.step-skipped, signing.step-failed, signing.unavailable.
 *
 * The step's own fields sit flat on the command, as one variant of SigningStep (signing-steps.ts)
 * whose discriminator is `family`: only that variant's fields, each checked as the variant needs
 * it. A command without `family` (sent before it existed) is the variant its fields tell.
 * `signingStepOf(command)` gives the step as its variant.
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

  /**
   * Which variant of SigningStep the command carries. Optional on arrival only for the commands
   * sent before it existed; the planner always names it.
   */
  @IsSigningStepVariant()
  family?: SigningStepFamily;

  /** evm-transaction: the contract call. */
  @ValidateIf((o: SigningPrepareCommand) => validatesStepField(o, 'call'))
  @IsObject()
  @ValidateNested()
  @Type(() => SigningCall)
  call?: SigningCall;

  /** solana-transaction: what the transaction does (see SolanaStepSpec). */
  @ValidateIf((o: SigningPrepareCommand) => validatesStepField(o, 'solana'))
  @IsObject()
  @ValidateNested()
  @Type(() => SolanaStepSpec)
  solana?: SolanaStepSpec;

  /** bitcoin-psbt: what the transaction does (see BitcoinStepSpec). */
  @ValidateIf((o: SigningPrepareCommand) => validatesStepField(o, 'bitcoin'))
  @IsObject()
  @ValidateNested()
  @Type(() => BitcoinStepSpec)
  bitcoin?: BitcoinStepSpec;

  @IsOptional()
  @ValidateNested()
  @Type(() => SigningApproveSpec)
  approve?: SigningApproveSpec;

  @IsOptional()
  @ValidateNested()
  @Type(() => SigningWaitForSpec)
  waitFor?: SigningWaitForSpec;

  /** How the service pays the step's gas (every step of a sponsored swap); evm-typed-data always. */
  @ValidateIf((o: SigningPrepareCommand) => validatesStepField(o, 'sponsored'))
  @IsObject()
  @ValidateNested()
  @Type(() => SponsoredStepSpec)
  sponsored?: SponsoredStepSpec;

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
