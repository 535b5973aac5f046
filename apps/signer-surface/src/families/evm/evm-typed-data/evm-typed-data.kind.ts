import { Inject, Injectable } from '@nestjs/common';
import { CodedError, ErrorCodes, EvmTypedDataSigningPayload } from '@swapgw/contracts';
import type {
  PayloadKindHandler,
  StepSubmission,
  SubmissionVerdict,
  TrackedStep,
  TrackingDecision,
} from '../../../signing/payload-kinds/payload-kind-handler';
import { wrongForm } from '../../../signing/payload-kinds/payload-kind-handler';
import { StepAcceptance, withStepOf } from '../../../signing/payload-kinds/step-acceptance';
import type { PayloadBuild, SigningChainClient } from '@swapgw/chains/families';
import { type SigningRequestEntity, sponsoredOwnerOf } from '../../../signing/signing-request.entity';
import {
  sponsorOrUnavailable,
  type SponsoredIssueContext,
} from '../../../signing/payload-kinds/sponsored-issue';
import { GAS_SPONSOR, type GasSponsor } from '../../../sponsorship/gas-sponsor';
import { relayEndOf } from '../../../sponsorship/sponsored-ends';
import { relayableCallOf } from './relayable-call';
import { typedDataIssue } from './typed-data.issue';

/**
 * `evm-typed-data`: a sponsored step the user signs as typed data. The signature must be `from`'s
 * over the issued typed data; a relayer then sends, and pays for, the transaction carrying it. A
 * submit retried after a crash finds the transaction already sent for the step instead of sending
 * another. The row is `submitted` with the relayer's transaction hash; nothing is broadcast after
 * commit. Sending is estimating the gas and broadcasting, never waiting for a block: a call that
 * would revert answers TX_REQUEST_INVALID at once, and whatever happens to the transaction later
 * (mined, fee-bumped, dropped, cancelled, lost) is the confirmation tracker's, which follows the
 * relayers' transaction (`track`) and never resends it itself (`resentBySponsor`).
 */
@Injectable()
export class EvmTypedDataKind implements PayloadKindHandler {
  /** EIP-2612 permits and Permit2 intents: typed data a relayer carries. */
  static readonly sponsoredIssue = typedDataIssue;
  readonly kind = 'evm-typed-data' as const;
  readonly signedForm = 'evm-signature' as const;
  /** The relayers resend (and fee-bump) their own transactions; the tracker only looks again. */
  readonly resentBySponsor = true;

  constructor(
    private readonly acceptance: StepAcceptance,
    /** The relayers that carry typed-data signatures. */
    @Inject(GAS_SPONSOR) private readonly sponsor: GasSponsor | null,
  ) {}

  /** A sponsored step's payload (typedDataIssue), paid by this kind's sponsor. */
  issueSponsored(
    row: SigningRequestEntity,
    client: SigningChainClient,
    context: SponsoredIssueContext,
  ): Promise<PayloadBuild> {
    return typedDataIssue.issue(row, client, context, sponsorOrUnavailable(this.sponsor));
  }

  async submit({ manager, current, signed }: StepSubmission): Promise<SubmissionVerdict> {
    if (signed.family !== 'evm-signature') throw wrongForm(this, signed);
    const signature = signed.signature;
    const step = { stepIndex: current.stepIndex, stepCount: current.stepCount };
    let call;
    try {
      call = relayableCallOf(
        current.payload as EvmTypedDataSigningPayload,
        current.spec.sponsored,
        current.from,
        signature,
        step,
      );
    } catch (error) {
      if (error instanceof CodedError) return { kind: 'error', error };
      throw error;
    }
    if (!this.sponsor)
      throw new CodedError(ErrorCodes.SPONSORSHIP_UNAVAILABLE, 'No relayer is configured for sponsored gas');
    let sent = await this.sponsor.findSent(current.swapId, current.stepIndex, call.purpose);
    if (!sent) {
      try {
        sent = await this.sponsor.send({
          chain: current.chain,
          to: call.to,
          data: call.data,
          value: 0n,
          purpose: call.purpose,
          swapId: current.swapId,
          stepIndex: current.stepIndex,
          owner: sponsoredOwnerOf(current),
        });
      } catch (error) {
        // The chain refuses it (a used nonce, a passed deadline, a balance gone): the user's error.
        if (error instanceof CodedError && error.code === ErrorCodes.TX_REQUEST_INVALID) {
          return { kind: 'error', error: withStepOf(current, error) };
        }
        throw error;
      }
    }
    current.status = 'submitted';
    current.rawTx = signature;
    current.txHash = sent.txHash;
    current.sponsoredTxId = sent.id;
    return this.acceptance.accept(manager, current, 'sent');
  }

  /**
   * The relayers' transaction of the step: the step follows its mined hash (a fee bump replaces it).
   * Its state tells whether it can still carry the step (relayEndOf): dropped or cancelled (another
   * transaction took its nonce, it can never be mined) fails the step now; lost leaves the chain the
   * last word, since a reorg can mine it again. A step already confirmed is never looked at again: a
   * relayer transaction lost after that leaves it confirmed (the swap moved on); the relayers log the loss.
   */
  async track({ row }: TrackedStep): Promise<TrackingDecision> {
    if (!row.sponsoredTxId || !this.sponsor) return { kind: 'follow-chain', end: null };
    const relayed = await this.sponsor.status(row.sponsoredTxId);
    if (relayed.minedHash && relayed.minedHash !== row.txHash) row.txHash = relayed.minedHash;
    const end = relayEndOf(relayed);
    if (end && relayed.state !== 'lost') return { kind: 'fail', failure: end };
    return { kind: 'follow-chain', end };
  }
}
