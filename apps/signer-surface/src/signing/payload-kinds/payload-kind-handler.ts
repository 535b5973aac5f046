import type { SigningPayload } from '@swapgw/contracts';
import type {
  PayloadBuild,
  SignedArtifact,
  SignedArtifactForm,
  SignedTransactionArtifact,
  SigningChainClient,
} from '@swapgw/chains/families';
import type { CodedError } from '@swapgw/contracts';
import type { EntityManager } from 'typeorm';
import type { SigningRequestEntity } from '../signing-request.entity';
import type { StepFailure } from '../../sponsorship/sponsored-ends';
import type { SponsoredIssueContext } from './sponsored-issue';

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

/** A submitted step the confirmation tracker is looking at, with its chain's family client. */
export interface TrackedStep {
  /** The step's request (`submitted`), whose payload is of the handler's kind; a hook may update its transaction fields. */
  row: SigningRequestEntity;
  client: SigningChainClient;
}

/**
 * What a kind decides before the tracker asks the chain where the step's transaction stands:
 *  - `follow-chain`: ask the chain; `end`, when set, is a sponsor's transaction the ledger gives up on
 *    (lost) that the chain may still have in a block, so the chain says last;
 *  - `look-again`: save the row and look again after `polls` confirmation polls (nothing else now);
 *  - `fail`: the step fails with this code and reason.
 */
export type TrackingDecision =
  | { kind: 'follow-chain'; end: StepFailure | null }
  | { kind: 'look-again'; polls: number }
  | { kind: 'fail'; failure: StepFailure };

/**
 * One payload kind's part of the signing flow: verify what the client signed against the payload,
 * then submit it (relay it, co-sign it, complete it or accept it for broadcast) and account for it in
 * the sponsorship ledger when the service pays, all in the deciding transaction; then, while the
 * confirmation tracker follows it, what only this kind knows (its optional tracking hooks). The
 * signing flow (SigningSubmissionService, ConfirmationTracker) calls the handler of the step's kind
 * and never branches on the kind itself; a new kind is one folder with its handler, listed in
 * PAYLOAD_KIND_HANDLERS.
 */
export interface PayloadKindHandler {
  readonly kind: PayloadKind;
  /** The form a signed submission of this kind takes (decodeSignedArtifact). */
  readonly signedForm: SignedArtifactForm;
  submit(submission: StepSubmission): Promise<SubmissionVerdict>;
  /**
   * The step's transaction is someone else's to resend (the relayers resend and fee-bump it): the
   * tracker never sends it again when the node does not know it, only looks again.
   */
  readonly resentBySponsor?: boolean;
  /** Before the chain is asked (absent: `follow-chain` with no end). */
  track?(step: TrackedStep): Promise<TrackingDecision>;
  /** The node does not know the transaction: a failure when it can never be paid for (absent: none). */
  endWhenUnknown?(step: TrackedStep): Promise<StepFailure | null>;
  /**
   * The node says the transaction can never land as signed (a Solana blockhash aged out): the
   * failure when the cause is the service's (absent or null: TX_REJECTED with the node's reason).
   */
  failureWhenExpired?(step: TrackedStep, nodeReason: string): Promise<StepFailure | null>;
  /**
   * Issues the payload of a step sponsored under one of the modes of the kind's `sponsoredIssue`,
   * with the kind's own sponsor (present exactly when the kind's class has a `sponsoredIssue`).
   */
  issueSponsored?(
    row: SigningRequestEntity,
    client: SigningChainClient,
    context: SponsoredIssueContext,
  ): Promise<PayloadBuild>;
  /**
   * Co-signs a decoded transaction that names one of the service's fee payers (Solana), answering
   * the fee payer's signature of `message`, or null when `feePayer` is none of the kind's.
   */
  signAsFeePayer?(feePayer: string, message: Uint8Array): Uint8Array | null;
}

/** The handler was given a signed form that is not its own: the flow checks the form first. */
export function wrongForm(handler: PayloadKindHandler, signed: SignedArtifact): Error {
  return new Error(`unreachable: ${handler.kind} was given a ${signed.family} submission`);
}
