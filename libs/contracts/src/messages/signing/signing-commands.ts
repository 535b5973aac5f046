import { Type } from 'class-transformer';
import {
  IsIn,
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  Matches,
  Max,
  Min,
  ValidateNested,
} from 'class-validator';
import { SIGNING_STEP_KINDS, SigningStepKind } from './signing-message-types';

const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const HEX_DATA = /^0x([0-9a-fA-F]{2})*$/;
const BASE_UNITS = /^(0|[1-9][0-9]*)$/;

/** The contract call a step makes: `value` in wei as a decimal string, `data` 0x-hex ("0x" for none). */
export class SigningCall {
  @Matches(EVM_ADDRESS, { message: 'to must be a 0x-prefixed 20-byte address' })
  to!: string;

  @Matches(HEX_DATA, { message: 'data must be 0x-prefixed hex of whole bytes' })
  data!: string;

  @Matches(BASE_UNITS, { message: 'value must be a non-negative integer decimal string (wei)' })
  value!: string;
}

/**
 * For `kind: 'approve'`: the allowance the step grants. signer-surface reads
 * `allowance(from, spender)` first and answers `signing.step-skipped` when it already covers `amount`.
 */
export class SigningApproveSpec {
  @Matches(EVM_ADDRESS)
  token!: string;

  @Matches(EVM_ADDRESS)
  spender!: string;

  /** Base units the following step needs (not necessarily what the approve call grants). */
  @Matches(BASE_UNITS)
  amount!: string;
}

/**
 * A balance that must exist before the step can be signed (e.g. the bridged tokens on the
 * destination chain). signer-surface keeps the request waiting and re-checks it periodically.
 * `token` null means the native coin.
 */
export class SigningWaitForSpec {
  @IsOptional()
  @Matches(EVM_ADDRESS)
  token!: string | null;

  @Matches(EVM_ADDRESS)
  holder!: string;

  @Matches(BASE_UNITS)
  minBalance!: string;
}

/**
 * `signing.prepare` (signing.commands, planner → signer-surface): build the chain payload of one
 * step. Idempotent on (swapId, stepId): a replay answers nothing new.
 * Answered by one of signing.payload-ready, signing.waiting (then payload-ready later),
 * signing.step-skipped, signing.step-failed, signing.unavailable.
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

  /** The user's address that will sign and send the transaction. */
  @IsString()
  @IsNotEmpty()
  from!: string;

  @ValidateNested()
  @Type(() => SigningCall)
  call!: SigningCall;

  @IsOptional()
  @ValidateNested()
  @Type(() => SigningApproveSpec)
  approve?: SigningApproveSpec;

  @IsOptional()
  @ValidateNested()
  @Type(() => SigningWaitForSpec)
  waitFor?: SigningWaitForSpec;
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
