import { Injectable, Logger } from '@nestjs/common';
import { CodedError, ErrorCodes } from '@swapgw/contracts';
import {
  feePayerOf,
  isCoSigned,
  LAMPORTS_PER_SIGNATURE,
  type PayloadBuild,
  SignedTransactionArtifact,
  type SigningChainClient,
  verifySignedArtifact,
} from '@swapgw/chains/families';
import type { EntityManager } from 'typeorm';
import { SignerChains } from '../../../chains/signer-chains';
import { SigningRequestEntity, sponsoredOwnerOf } from '../../../signing/signing-request.entity';
import type {
  PayloadKindHandler,
  StepSubmission,
  SubmissionVerdict,
  TrackedStep,
} from '../../../signing/payload-kinds/payload-kind-handler';
import { wrongForm } from '../../../signing/payload-kinds/payload-kind-handler';
import { expiredError, refusalOf, StepAcceptance } from '../../../signing/payload-kinds/step-acceptance';
import { StepFailureCodes } from '../../../signing/signing-events.outbox';
import type { StepFailure } from '../../../sponsorship/sponsored-ends';
import { feePayerShortfallOf } from './fee-payer-funds';
import { solanaFeePayerIssue } from './fee-payer.issue';
import { sponsoredAs, type SponsoredIssueContext } from '../../../signing/payload-kinds/sponsored-issue';
import { SolanaFeePayerSponsor } from '../solana-fee-payer-sponsor';

type SolanaArtifact = Extract<SignedTransactionArtifact, { family: 'solana' }>;

/**
 * `solana-versioned-transaction`: a Solana transaction the user signs, paid by the user or, sponsored,
 * by one of the service's fee payers, which co-signs it once it is checked. A transaction whose
 * blockhash aged out expires the request and a fresh payload is issued; one that expires once sent
 * fails FEE_PAYER_UNAVAILABLE when the service's fee payer could not pay it (`failureWhenExpired`).
 */
@Injectable()
export class SolanaTransactionKind implements PayloadKindHandler {
  /** One of the service's fee payers pays, and co-signs once the user's signature is checked. */
  static readonly sponsoredIssue = solanaFeePayerIssue;
  readonly kind = 'solana-versioned-transaction' as const;
  readonly signedForm = 'solana' as const;
  private readonly logger = new Logger(SolanaTransactionKind.name);

  constructor(
    private readonly chains: SignerChains,
    private readonly acceptance: StepAcceptance,
    /** The fee payers that pay for and co-sign sponsored steps. */
    private readonly sponsor: SolanaFeePayerSponsor,
  ) {}

  /** A sponsored step's payload (solanaFeePayerIssue), paid by this kind's sponsor. */
  issueSponsored(
    row: SigningRequestEntity,
    client: SigningChainClient,
    context: SponsoredIssueContext,
  ): Promise<PayloadBuild> {
    return solanaFeePayerIssue.issue(row, client, context, this.sponsor);
  }

  /** The service's fee payers co-sign the transactions they pay for as they are decoded. */
  signAsFeePayer(feePayer: string, message: Uint8Array): Uint8Array | null {
    return this.sponsor.sign(feePayer, message);
  }

  async submit({ manager, current, signed }: StepSubmission): Promise<SubmissionVerdict> {
    if (signed.family !== 'solana') throw wrongForm(this, signed);
    const coSigns = sponsoredAs(current, solanaFeePayerIssue);
    const refused = refusalOf(current, () =>
      verifySignedArtifact(signed, current.payload, { feePayerSignsLater: coSigns }),
    );
    if (refused) return refused;
    const stale = await this.checkStillLandable(current, signed);
    if (stale) return stale;
    if (coSigns) return this.coSign(manager, current, signed);
    return this.acceptance.acceptForBroadcast(manager, current, signed);
  }

  /**
   * A signed transaction that can never land as it is (its blockhash aged out) expires the
   * request, and a fresh payload is issued for the next GET. When the chain cannot tell now, it is
   * accepted: the tracker resends it and fails the step if it never lands.
   */
  private async checkStillLandable(
    current: SigningRequestEntity,
    tx: SolanaArtifact,
  ): Promise<SubmissionVerdict | null> {
    const lookup = this.chains.signing(current.chain);
    if (!lookup.ok) return null;
    let landable: boolean;
    try {
      landable = await lookup.client.isStillLandable(tx);
    } catch (error) {
      this.logger.warn({
        msg: 'blockhash validity unknown; accepting',
        swapId: current.swapId,
        error: (error as Error).message,
      });
      return null;
    }
    if (landable) return null;
    const error = expiredError(current);
    return {
      kind: 'reissue',
      row: current,
      error: new CodedError(
        error.code,
        `The transaction's blockhash is no longer valid. ${error.message}`,
        error.details,
      ),
    };
  }

  /**
   * A sponsored step, checked: the fee payer's signature is added, the fully signed transaction
   * recorded as the step's rawTx (the tracker resends it as it is) under its id (the fee payer's
   * signature), and in the sponsorship ledger, in this transaction; it is broadcast after commit. A
   * fee payer no longer configured cannot sign: 503 SPONSORSHIP_UNAVAILABLE.
   */
  private async coSign(
    manager: EntityManager,
    current: SigningRequestEntity,
    tx: SolanaArtifact,
  ): Promise<SubmissionVerdict> {
    if (!isCoSigned(tx)) {
      return {
        kind: 'error',
        error: new CodedError(
          ErrorCodes.SPONSORSHIP_UNAVAILABLE,
          `The fee payer ${feePayerOf(tx)} of this transaction is not one of the service's anymore`,
          { chain: current.chain },
        ),
      };
    }
    const cost = current.executionHints as Record<string, string> | null;
    const rawTx = tx.coSigned.serialized.toString('base64');
    current.sponsoredTxId = await this.sponsor.record(manager, {
      chain: current.chain,
      feePayer: tx.tx.feePayer,
      wallet: current.from,
      swapId: current.swapId,
      stepIndex: current.stepIndex,
      owner: sponsoredOwnerOf(current),
      signature: tx.coSigned.signature,
      transaction: rawTx,
      maxFeeLamports: BigInt(
        cost?.estimatedFeeLamports ??
          tx.tx.transaction.message.header.numRequiredSignatures * LAMPORTS_PER_SIGNATURE,
      ),
      rentLamports: BigInt(cost?.rentPaidByServiceLamports ?? 0),
    });
    current.status = 'submitted';
    current.rawTx = rawTx;
    current.txHash = tx.coSigned.signature;
    return this.acceptance.accept(manager, current, 'after-commit', tx);
  }

  /** A sponsored transaction whose fee payer ran dry never lands either: the service's problem, said as such. */
  async failureWhenExpired({ row, client }: TrackedStep, nodeReason: string): Promise<StepFailure | null> {
    const shortfall = sponsoredAs(row, solanaFeePayerIssue) ? await feePayerShortfallOf(client, row) : null;
    if (!shortfall) return null;
    return { code: StepFailureCodes.feePayerUnavailable, reason: `${shortfall.reason}; ${nodeReason}` };
  }
}
