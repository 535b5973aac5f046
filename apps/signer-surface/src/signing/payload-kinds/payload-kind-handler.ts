import type { SigningPayload } from '@swapgw/contracts';
import type { SignedArtifact, SignedArtifactForm, SignedTransactionArtifact } from '@swapgw/chains/families';
import type { CodedError } from '@swapgw/contracts';
import type { EntityManager } from 'typeorm';
import type { SigningRequestEntity } from '../signing-request.entity';

/** A payload kind, as `SigningPayload.type` names it. */
export type PayloadKind = SigningPayload['type'];

/**
 * What the accepting transaction decided; errors that record state are thrown after commit.
 * `broadcast`: the signed transaction to send after commit (none: nothing to send now).
 */
export type SubmissionVerdict =
  | { kind: 'accepted'; row: SigningRequestEntity; broadcast: SignedTransactionArtifact | null }
  | { kind: 'error'; error: CodedError }
  /** A payload that can never land as signed (a Solana blockhash that aged out): the expiry error, after a fresh payload is issued. */
  | { kind: 'reissue'; row: SigningRequestEntity; error: CodedError };

/** A submission of the swap's current step, once the flow checked the step is `ready`, not expired, and of this kind. */
export interface StepSubmission {
  /** The deciding transaction, in which the swap's current request is locked. */
  manager: EntityManager;
  /** The swap's current request (`ready`), whose payload is of the handler's kind. */
  current: SigningRequestEntity;
  /** What the client sent, in the form the kind takes (`signedForm`). */
  signed: SignedArtifact;
  /** `signed` is a transaction the wallet broadcast itself (a txHash), never broadcast by the service. */
  sentByWallet: boolean;
}

/**
 * One payload kind's part of the signing flow after the payload is issued: verify what the client
 * signed against the payload, then submit it (relay it, co-sign it, complete it or accept it for
 * broadcast) and account for it in the sponsorship ledger when the service pays, all in the deciding
 * transaction. The signing flow (SigningSubmissionService) calls the handler of the step's kind and
 * never branches on the kind itself; a new kind is one folder with its handler, listed in
 * PAYLOAD_KIND_HANDLERS.
 */
export interface PayloadKindHandler {
  readonly kind: PayloadKind;
  /** The form a signed submission of this kind takes (decodeSignedArtifact). */
  readonly signedForm: SignedArtifactForm;
  submit(submission: StepSubmission): Promise<SubmissionVerdict>;
}

/** The handler was given a signed form that is not its own: the flow checks the form first. */
export function wrongForm(handler: PayloadKindHandler, signed: SignedArtifact): Error {
  return new Error(`unreachable: ${handler.kind} was given a ${signed.family} submission`);
}
