import { Injectable } from '@nestjs/common';
import { EvmSigningPayload } from '@swapgw/contracts';
import { assertNoMismatch, compareSentWithPayload, verifySignedArtifact } from '@swapgw/chains/families';
import type { PayloadKindHandler, StepSubmission, SubmissionVerdict } from '../payload-kind-handler';
import { wrongForm } from '../payload-kind-handler';
import { refusalOf, StepAcceptance } from '../step-acceptance';

/**
 * `evm-transaction`: a transaction the user signs and pays for (or, sponsored as a covered
 * transaction, whose gas a relayer sends ahead). Signed by the wallet → checked field by field
 * against the payload and broadcast after commit (a covered one once its gas drop is mined). Sent by
 * the wallet itself (a txHash) → checked against what the wallet may choose freely and followed as it is.
 */
@Injectable()
export class EvmTransactionKind implements PayloadKindHandler {
  readonly kind = 'evm-transaction' as const;
  readonly signedForm = 'evm' as const;

  constructor(private readonly acceptance: StepAcceptance) {}

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
}
