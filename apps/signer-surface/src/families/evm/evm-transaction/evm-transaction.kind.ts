import { Inject, Injectable, Logger } from '@nestjs/common';
import { EvmSigningPayload } from '@swapgw/contracts';
import { Clock } from '@swapgw/runtime';
import {
  assertNoMismatch,
  compareSentWithPayload,
  type PayloadBuild,
  type SigningChainClient,
  verifySignedArtifact,
} from '@swapgw/chains/families';
import type {
  PayloadKindHandler,
  StepSubmission,
  SubmissionVerdict,
  TrackedStep,
  TrackingDecision,
} from '../../../signing/payload-kinds/payload-kind-handler';
import { wrongForm } from '../../../signing/payload-kinds/payload-kind-handler';
import { coveredTransactionIssue } from './covered-transaction.issue';
import { StepFailureCodes } from '../../../signing/signing-events.outbox';
import { GAS_SPONSOR, type GasSponsor } from '../../../sponsorship/gas-sponsor';
import { gasDropEndOf, type StepFailure } from '../../../sponsorship/sponsored-ends';
import { refusalOf, StepAcceptance } from '../../../signing/payload-kinds/step-acceptance';
import { requiredColumn } from '../../../signing/signing-request-columns';
import type { SigningRequestEntity } from '../../../signing/signing-request.entity';
import {
  sponsorOrUnavailable,
  type SponsoredIssueContext,
} from '../../../signing/payload-kinds/sponsored-issue';

/**
 * `evm-transaction`: a transaction the user signs and pays for (or, sponsored as a covered
 * transaction, whose gas a relayer sends ahead). Signed by the wallet → checked field by field
 * against the payload and broadcast after commit (a covered one once its gas drop is mined). Sent by
 * the wallet itself (a txHash) → checked against what the wallet may choose freely and followed as it is.
 * Tracked: a covered transaction not broadcast yet waits for its gas drop (`track`), and one the node
 * lost fails with its drop's code when the drop ended without delivering (`endWhenUnknown`).
 */
@Injectable()
export class EvmTransactionKind implements PayloadKindHandler {
  /** A covered transaction: the user's own, its gas sent ahead by a relayer. */
  static readonly sponsoredIssue = coveredTransactionIssue;
  readonly kind = 'evm-transaction' as const;
  readonly signedForm = 'evm' as const;
  private readonly logger = new Logger(EvmTransactionKind.name);

  constructor(
    private readonly acceptance: StepAcceptance,
    /** The relayers that send a covered transaction's gas drop. */
    @Inject(GAS_SPONSOR) private readonly sponsor: GasSponsor | null,
    private readonly clock: Clock,
  ) {}

  /** A sponsored step's payload (coveredTransactionIssue), paid by this kind's sponsor. */
  issueSponsored(
    row: SigningRequestEntity,
    client: SigningChainClient,
    context: SponsoredIssueContext,
  ): Promise<PayloadBuild> {
    return coveredTransactionIssue.issue(row, client, context, sponsorOrUnavailable(this.sponsor));
  }

  async submit({ manager, current, signed, sentByWallet }: StepSubmission): Promise<SubmissionVerdict> {
    if (signed.family !== 'evm') throw wrongForm(this, signed);
    if (sentByWallet) {
      // A user-paid step whose transaction the wallet sent itself (an injected wallet such as
      // MetaMask can only sign and send): it must be the issued call from the issued sender on the
      // issued chain, at a nonce not below the payload's; its nonce and gas are the wallet's. It is
      // then followed exactly as one the service broadcast (the tracker sends the same bytes again
      // if the node loses it), never sent now.
      const payload = (current.payload as EvmSigningPayload).transaction;
      const refused = refusalOf(current, () =>
        assertNoMismatch(compareSentWithPayload(signed.tx, payload), 'The transaction sent'),
      );
      if (refused) return refused;
      current.status = 'submitted';
      current.rawTx = signed.rawTx;
      current.txHash = signed.hash;
      return this.acceptance.accept(manager, current, 'sent');
    }
    const refused = refusalOf(current, () =>
      verifySignedArtifact(signed, current.payload, { feePayerSignsLater: false }),
    );
    if (refused) return refused;
    return this.acceptance.acceptForBroadcast(manager, current, signed);
  }

  /**
   * A covered transaction accepted before its gas drop was mined: sent as soon as the drop is
   * (looked at every pass), failed with the drop's code when the drop ends without delivering its
   * gas (dropped, cancelled, lost, reverted). A node that cannot be reached: sent on a later pass;
   * one that refuses it: TX_REJECTED. Any other transaction of the kind: the chain is asked.
   */
  async track({ row, client }: TrackedStep): Promise<TrackingDecision> {
    if (!row.gasDropId || row.broadcastAt !== null) return { kind: 'follow-chain', end: null };
    const drop = this.sponsor ? await this.sponsor.status(row.gasDropId) : null;
    if (drop?.state === 'pending') return { kind: 'look-again', polls: 1 };
    const end = drop ? gasDropEndOf(drop, row.from) : null;
    if (end) return { kind: 'fail', failure: end };
    const outcome = await client.broadcast(requiredColumn(row, 'rawTx'), requiredColumn(row, 'txHash'));
    switch (outcome.kind) {
      case 'sent':
      case 'already-known':
        this.logger.log({
          msg: 'transaction broadcast after its gas drop was mined',
          swapId: row.swapId,
          stepIndex: row.stepIndex,
          txHash: row.txHash,
        });
        row.broadcastAt = new Date(this.clock.nowMs());
        return { kind: 'look-again', polls: 1 };
      case 'unreachable':
        this.logger.warn({
          msg: 'broadcast after the gas drop failed, RPC unreachable; will retry',
          txHash: row.txHash,
          error: outcome.message,
        });
        return { kind: 'look-again', polls: 5 };
      case 'rejected':
        return { kind: 'fail', failure: { code: StepFailureCodes.rejected, reason: outcome.message } };
    }
  }

  /**
   * A covered transaction the node does not know: when its gas drop ended without delivering (lost
   * to a reorg or a chain reset after the broadcast), it can never be paid for.
   */
  async endWhenUnknown({ row }: TrackedStep): Promise<StepFailure | null> {
    if (!row.gasDropId || !this.sponsor) return null;
    return gasDropEndOf(await this.sponsor.status(row.gasDropId), row.from);
  }
}
