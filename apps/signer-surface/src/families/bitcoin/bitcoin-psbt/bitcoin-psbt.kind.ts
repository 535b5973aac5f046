import { Injectable } from '@nestjs/common';
import { BitcoinPsbtSigningPayload, CodedError, ErrorCodes } from '@swapgw/contracts';
import {
  bitcoinFeeInputOf,
  completeSponsoredBitcoinStep,
  type PayloadBuild,
  type SigningChainClient,
  VerifiedBitcoinStep,
  verifySignedBitcoinStep,
} from '@swapgw/chains/families';
import { type SigningRequestEntity, sponsoredOwnerOf } from '../../../signing/signing-request.entity';
import type { SponsoredIssueContext } from '../../../signing/payload-kinds/sponsored-issue';
import { BitcoinFeeWalletSponsor } from '../bitcoin-fee-wallet-sponsor';
import type {
  PayloadKindHandler,
  StepSubmission,
  SubmissionVerdict,
} from '../../../signing/payload-kinds/payload-kind-handler';
import { wrongForm } from '../../../signing/payload-kinds/payload-kind-handler';
import { StepAcceptance, withStepOf } from '../../../signing/payload-kinds/step-acceptance';
import { bitcoinFeeWalletIssue } from './fee-wallet.issue';

/**
 * `bitcoin-psbt`: what the wallet returned must be the issued PSBT with the user's inputs validly
 * signed (verifySignedBitcoinStep); the service then signs its fee input with the fee wallet's key,
 * and the completed transaction is recorded as the step's rawTx under its txid, and in the
 * sponsorship ledger (which marks the held fee input spent), in the deciding transaction; it is
 * broadcast after commit. A fee wallet no longer configured cannot sign: 503 SPONSORSHIP_UNAVAILABLE.
 */
@Injectable()
export class BitcoinPsbtKind implements PayloadKindHandler {
  /** A fee wallet's UTXO pays the miner fee beside the user's inputs. */
  static readonly sponsoredIssue = bitcoinFeeWalletIssue;
  readonly kind = 'bitcoin-psbt' as const;
  readonly signedForm = 'bitcoin' as const;

  constructor(
    private readonly acceptance: StepAcceptance,
    /** The fee wallets whose inputs pay for the step. */
    private readonly sponsor: BitcoinFeeWalletSponsor,
  ) {}

  /** A sponsored step's payload (bitcoinFeeWalletIssue), paid by this kind's sponsor. */
  issueSponsored(
    row: SigningRequestEntity,
    client: SigningChainClient,
    context: SponsoredIssueContext,
  ): Promise<PayloadBuild> {
    return bitcoinFeeWalletIssue.issue(row, client, context, this.sponsor);
  }

  async submit({ manager, current, signed }: StepSubmission): Promise<SubmissionVerdict> {
    if (signed.family !== 'bitcoin') throw wrongForm(this, signed);
    const payload = current.payload as BitcoinPsbtSigningPayload;
    let verified: VerifiedBitcoinStep;
    try {
      verified = verifySignedBitcoinStep(payload.psbt, signed.rawTx);
    } catch (error) {
      if (!(error instanceof CodedError)) throw error;
      return { kind: 'error', error: withStepOf(current, error) };
    }
    const feeWallet = (current.executionHints as Record<string, string> | null)?.feeWallet;
    const completed = feeWallet
      ? this.sponsor.withFeeWalletKey(feeWallet, (key) => completeSponsoredBitcoinStep(verified, key))
      : null;
    if (!completed || !feeWallet) {
      return {
        kind: 'error',
        error: new CodedError(
          ErrorCodes.SPONSORSHIP_UNAVAILABLE,
          `The fee wallet ${feeWallet ?? '(none)'} of this transaction is not one of the service's anymore`,
          { chain: current.chain },
        ),
      };
    }
    const feeInput = bitcoinFeeInputOf(verified);
    current.sponsoredTxId = await this.sponsor.record(manager, {
      chain: current.chain,
      feeWallet,
      wallet: current.from,
      swapId: current.swapId,
      stepIndex: current.stepIndex,
      owner: sponsoredOwnerOf(current),
      txid: completed.txid,
      rawTx: completed.rawTxHex,
      feeSats: completed.fee,
      feeInput,
    });
    current.status = 'submitted';
    current.rawTx = completed.rawTxHex;
    current.txHash = completed.txid;
    return this.acceptance.accept(manager, current, 'after-commit', {
      family: 'bitcoin',
      hash: completed.txid,
      rawTx: completed.rawTxHex,
    });
  }
}
