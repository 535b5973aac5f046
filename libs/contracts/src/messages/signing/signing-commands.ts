import { Type } from 'class-transformer';
import {
  IsIn,
  IsInt,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  Max,
  Min,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { SIGNING_STEP_KINDS, SigningStepKind } from './signing-message-types';

const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const HEX_DATA = /^0x([0-9a-fA-F]{2})*$/;
const BASE_UNITS = /^(0|[1-9][0-9]*)$/;
/** A Solana public key (base58, 32 bytes: 32 to 44 characters). */
const SOLANA_ADDRESS = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;
/** An account of either family a step can wait on: an EVM address, or a Solana wallet / mint. */
const WALLET_OR_TOKEN = /^(0x[0-9a-fA-F]{40}|[1-9A-HJ-NP-Za-km-z]{32,44})$/;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

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
 * `token` null means the native coin. On a Solana chain `token` is the SPL mint and `holder` the
 * wallet: the balance read is the one of the wallet's associated token account.
 */
export class SigningWaitForSpec {
  @IsOptional()
  @Matches(WALLET_OR_TOKEN)
  token!: string | null;

  @Matches(WALLET_OR_TOKEN)
  holder!: string;

  @Matches(BASE_UNITS)
  minBalance!: string;
}

export const SOLANA_STEP_KINDS = ['bridge-deposit', 'prebuilt-transaction'] as const;
export type SolanaStepKind = (typeof SOLANA_STEP_KINDS)[number];

/**
 * What a step on a Solana chain does (instead of an EVM `call`):
 *  - `bridge-deposit`: signer-surface builds the devnet bridge deposit (transferChecked of `amount`
 *    of `mint` from `from`'s associated token account to `vault`, plus the memo naming
 *    `destinationChainId` and the EVM `recipient`);
 *  - `prebuilt-transaction`: an aggregator's unsigned v0 transaction (`serializedTransaction`,
 *    base64) handed out as it is, valid until `lastValidBlockHeight`.
 */
export class SolanaStepSpec {
  @IsIn(SOLANA_STEP_KINDS)
  kind!: SolanaStepKind;

  @ValidateIf((o: SolanaStepSpec) => o.kind === 'bridge-deposit')
  @Matches(SOLANA_ADDRESS)
  mint?: string;

  @ValidateIf((o: SolanaStepSpec) => o.kind === 'bridge-deposit')
  @Matches(SOLANA_ADDRESS)
  vault?: string;

  /** Base units of `mint`. */
  @ValidateIf((o: SolanaStepSpec) => o.kind === 'bridge-deposit')
  @Matches(BASE_UNITS)
  amount?: string;

  @ValidateIf((o: SolanaStepSpec) => o.kind === 'bridge-deposit')
  @IsInt()
  @Min(1)
  destinationChainId?: number;

  /** The EVM address paid on the destination chain. */
  @ValidateIf((o: SolanaStepSpec) => o.kind === 'bridge-deposit')
  @Matches(EVM_ADDRESS)
  recipient?: string;

  @ValidateIf((o: SolanaStepSpec) => o.kind === 'prebuilt-transaction')
  @IsString()
  @Matches(BASE64)
  serializedTransaction?: string;

  @ValidateIf((o: SolanaStepSpec) => o.kind === 'prebuilt-transaction')
  @IsInt()
  @Min(0)
  lastValidBlockHeight?: number;
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

  /** The user's address that will sign and send the transaction (base58 wallet on Solana). */
  @IsString()
  @IsNotEmpty()
  from!: string;

  /** EVM steps: the contract call. Absent on Solana steps, which carry `solana` instead. */
  @ValidateIf((o: SigningPrepareCommand) => o.solana === undefined)
  @IsObject()
  @ValidateNested()
  @Type(() => SigningCall)
  call?: SigningCall;

  /** Solana steps: what the transaction does (see SolanaStepSpec). */
  @IsOptional()
  @ValidateNested()
  @Type(() => SolanaStepSpec)
  solana?: SolanaStepSpec;

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
