import { Injectable } from '@nestjs/common';
import type { PayloadBuild, SigningChainClient } from '@swapgw/chains/families';
import { verifySignedArtifact } from '@swapgw/chains/families';
import type { SigningRequestEntity } from '../../../signing/signing-request.entity';
import type {
  PayloadKindHandler,
  StepSubmission,
  SubmissionVerdict,
} from '../../../signing/payload-kinds/payload-kind-handler';
import { wrongForm } from '../../../signing/payload-kinds/payload-kind-handler';
import type { SponsoredIssueContext } from '../../../signing/payload-kinds/sponsored-issue';
import { refusalOf, StepAcceptance } from '../../../signing/payload-kinds/step-acceptance';
import { sponsoredOwnerOf } from '../../../signing/signing-request.entity';
import { CosmosFeeGranters } from '../cosmos-fee-granters';
import { cosmosFeeGrantIssue } from './fee-grant.issue';

/**
 * `cosmos-sign-direct`: the signed TxRaw must carry the issued body and auth info byte for byte (or
 * their amino twin) and one valid signature by the wallet's key (verifySignedCosmosTx): a tampered
 * or foreign-signed transaction is 409 TX_REQUEST_MISMATCH, garbage 400 INVALID_SIGNED_TX. It is
 * recorded under its CometBFT hash, with its fee (the fee granter's) in the sponsorship ledger in the
 * same transaction, and broadcast with `broadcast_tx_sync` after commit; the tracker follows it to
 * its block (confirmed, or failed with the chain's code and log).
 */
@Injectable()
export class CosmosSignDirectKind implements PayloadKindHandler {
  /** The service's fee granter pays the fee under its x/feegrant allowance to the wallet. */
  static readonly sponsoredIssue = cosmosFeeGrantIssue;
  readonly kind = 'cosmos-sign-direct' as const;
  readonly signedForm = 'cosmos' as const;

  constructor(
    private readonly acceptance: StepAcceptance,
    private readonly granters: CosmosFeeGranters,
  ) {}

  issueSponsored(
    row: SigningRequestEntity,
    client: SigningChainClient,
    context: SponsoredIssueContext,
  ): Promise<PayloadBuild> {
    return cosmosFeeGrantIssue.issue(row, client, context, this.granters);
  }

  async submit({ manager, current, signed }: StepSubmission): Promise<SubmissionVerdict> {
    if (signed.family !== 'cosmos') throw wrongForm(this, signed);
    const refused = refusalOf(current, () => verifySignedArtifact(signed, current.payload));
    if (refused) return refused;
    const hints = current.executionHints as { fee?: string; feeGranter?: string } | null;
    const fee = /^(\d+)/.exec(hints?.fee ?? '')?.[1];
    if (hints?.feeGranter && fee) {
      current.sponsoredTxId = await this.granters.record(manager, {
        chain: current.chain,
        granter: hints.feeGranter,
        wallet: current.from,
        swapId: current.swapId,
        stepIndex: current.stepIndex,
        owner: sponsoredOwnerOf(current),
        rawTx: signed.rawTx,
        txHash: signed.hash,
        fee: BigInt(fee),
      });
    }
    return this.acceptance.acceptForBroadcast(manager, current, signed);
  }
}
