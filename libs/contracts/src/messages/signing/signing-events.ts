import { IsIn, IsInt, IsNotEmpty, IsObject, IsOptional, IsString, Matches, Min } from 'class-validator';
import { SIGNING_STEP_KINDS, SigningStepKind } from './signing-message-types';
import type { EvmExecutionHints, SigningClientHints } from './signing-payload';
import type { SigningPayload } from './signing-steps';
import { TX_HASH } from '../chain-formats';

/** EVM transaction hash, or a Solana transaction id (base58 of a 64-byte signature). */

/** Fields every signing event carries to name the step. */
abstract class SigningStepRef {
  @IsString()
  @IsNotEmpty()
  swapId!: string;

  @IsString()
  @IsNotEmpty()
  stepId!: string;

  /** 1-based, as in SigningPrepareCommand. */
  @IsInt()
  @Min(1)
  stepIndex!: number;

  @IsString()
  @IsNotEmpty()
  chain!: string;
}

/**
 * `signing.payload-ready`: the payload of the step can be signed now, until `expiresAtMs`.
 * A refresh emits another one for the same step with a new `signingRequestId`; the newest wins.
 */
export class SigningPayloadReadyEvent extends SigningStepRef {
  /** signer-surface's id of this payload issue (a refresh issues a new one). */
  @IsString()
  @IsNotEmpty()
  signingRequestId!: string;

  @IsInt()
  @Min(1)
  stepCount!: number;

  @IsIn(SIGNING_STEP_KINDS)
  kind!: SigningStepKind;

  /** `evm-transaction`, `evm-typed-data` or `solana-versioned-transaction` (see SigningPayload). */
  @IsObject()
  payload!: SigningPayload;

  @IsInt()
  @Min(0)
  expiresAtMs!: number;

  @IsInt()
  @Min(0)
  readyAtMs!: number;

  @IsObject()
  executionHints!: EvmExecutionHints | Record<string, string>;

  @IsObject()
  clientHints!: SigningClientHints;
}

/**
 * `signing.waiting`: the step waits for a condition (a balance to arrive, e.g. after a bridge)
 * before a payload can be issued; `readyAtMs` is the estimate. payload-ready follows.
 */
export class SigningWaitingEvent extends SigningStepRef {
  @IsInt()
  @Min(0)
  readyAtMs!: number;

  @IsString()
  @IsNotEmpty()
  reason!: string;
}

/** `signing.step-skipped`: nothing to sign for this step (e.g. the allowance already suffices). */
export class SigningStepSkippedEvent extends SigningStepRef {
  @IsString()
  @IsNotEmpty()
  reason!: string;
}

/** `signing.submitted`: the signed transaction was accepted and broadcast. */
export class SigningSubmittedEvent extends SigningStepRef {
  @Matches(TX_HASH)
  txHash!: string;

  @IsInt()
  @Min(0)
  submittedAtMs!: number;
}

/** The step's transaction as last seen in a block. */
abstract class SigningStepInBlock extends SigningStepRef {
  @Matches(TX_HASH)
  txHash!: string;

  @IsInt()
  @Min(0)
  blockNumber!: number;
}

/**
 * `signing.step-included`: the transaction is in a block with status 1 and has `confirmations` of
 * the `confirmationsRequired` the signer waits for. Sent once per block the transaction is seen in
 * (again after a reorg moved it), before `signing.step-confirmed`.
 */
export class SigningStepIncludedEvent extends SigningStepInBlock {
  @IsInt()
  @Min(0)
  confirmations!: number;

  @IsInt()
  @Min(1)
  confirmationsRequired!: number;
}

/** `signing.step-confirmed`: the transaction is mined with status 1 and enough confirmations. */
export class SigningStepConfirmedEvent extends SigningStepInBlock {
  @IsInt()
  @Min(1)
  confirmations!: number;

  @IsInt()
  @Min(0)
  confirmedAtMs!: number;
}

/**
 * `signing.step-failed`: the step cannot complete. `code`:
 *   TX_REQUEST_INVALID  the call would revert (or cannot pay gas) before anything was signed
 *   TX_REVERTED         mined with status 0 (`txHash` set)
 *   TX_REJECTED         the node refused the signed transaction, a Solana one never landed before its
 *                       blockhash expired, or the gas drop sent ahead of it reverted (`txHash` set)
 *   WAIT_TIMEOUT        the waitFor balance never arrived
 *   RELAY_DROPPED       the relayers' transaction (or the step's gas drop) lost its nonce to another sender
 *   RELAY_FEE_CEILING   the relayers' transaction could not be mined under its fee ceiling; cancelled
 *   RELAY_LOST          the relayers' transaction was mined, then its block was gone (reorg, chain reset)
 *   FEE_PAYER_UNAVAILABLE  the service's Solana fee payer could not pay when the transaction was sent
 * `reason` is the revert reason when readable, else the node's message.
 */
export class SigningStepFailedEvent extends SigningStepRef {
  @IsString()
  @IsNotEmpty()
  code!: string;

  @IsString()
  @IsNotEmpty()
  reason!: string;

  @IsOptional()
  @Matches(TX_HASH)
  txHash?: string;
}

/** `signing.unavailable`: no signing surface (RPC) for the step's chain; the build answers 503. */
export class SigningUnavailableEvent extends SigningStepRef {
  @IsString()
  @IsNotEmpty()
  reason!: string;

  /**
   * The error code the swap fails with (a 503 of the catalog): SPONSORSHIP_BUDGET_EXHAUSTED or
   * SPONSORSHIP_UNAVAILABLE; absent means SIGNING_SURFACE_UNAVAILABLE (no RPC).
   */
  @IsOptional()
  @IsString()
  code?: string;
}
