import { saveSigningRequest } from './save-signing-request';
import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  CodedError,
  ErrorCodes,
  EvmTypedDataSigningPayload,
  SigningSubmitRequest,
  SigningSubmitResult,
} from '@swapgw/contracts';
import { DataSource, type EntityManager } from 'typeorm';
import { SignerChains } from '../chains/signer-chains';
import { CLOCK, type Clock } from '../clock';
import {
  ARTIFACT_NEEDED,
  artifactFormFor,
  decodeSignedArtifact,
  LAMPORTS_PER_SIGNATURE,
  SignedArtifact,
  feePayerOf,
  isCoSigned,
  isSignedTransaction,
  recordedSubmissionOf,
  SignedTransactionArtifact,
  verifySignedArtifact,
} from '@swapgw/chains/families';
import { SigningEventsOutbox, StepFailureCodes } from './signing-events.outbox';
import { SigningPayloadIssuer } from './signing-payload.issuer';
import { SigningRequestEntity, sponsoredOwnerOf } from './signing-request.entity';
import { GAS_SPONSOR, type GasSponsor } from './sponsored/gas-sponsor';
import { feePayerSignsLater } from './sponsored/sponsored-payload-issues';
import { relayableCallOf } from './sponsored/sponsored-signature';

/** What the accepting transaction decided; errors that record state are thrown after commit. */
type Verdict =
  | { kind: 'accepted'; row: SigningRequestEntity; broadcast: boolean }
  | { kind: 'error'; error: CodedError }
  /** A Solana payload whose blockhash aged out: the expiry error, after the fresh payload is issued. */
  | { kind: 'reissue'; row: SigningRequestEntity; error: CodedError };

const resultOf = (row: SigningRequestEntity): SigningSubmitResult => ({
  swapId: row.swapId,
  stepIndex: row.stepIndex,
  txHash: row.txHash!,
  status: 'submitted',
});

/**
 * signing.submit: verifies the client's signed transaction against the payload issued for the
 * swap's current step, records it with a signing.submitted event in one transaction, then
 * broadcasts it. Idempotent on the transaction hash: the same rawTx again answers the same and is
 * not broadcast a second time.
 */
export interface SubmissionPolicy {
  /** The tracker's first look; the broadcast right after commit normally lands before it. */
  firstCheckDelayMs: number;
}

export const SUBMISSION_POLICY = Symbol('SubmissionPolicy');

@Injectable()
export class SigningSubmissionService {
  private readonly logger = new Logger(SigningSubmissionService.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly chains: SignerChains,
    private readonly events: SigningEventsOutbox,
    @Inject(SUBMISSION_POLICY) private readonly policy: SubmissionPolicy,
    private readonly issuer: SigningPayloadIssuer,
    /** The relayers that carry typed-data signatures (sponsored steps). */
    @Inject(GAS_SPONSOR) private readonly sponsor: GasSponsor | null = null,
    @Inject(CLOCK) private readonly now: Clock = Date.now,
  ) {}

  async submit(request: SigningSubmitRequest): Promise<SigningSubmitResult> {
    const sponsor = this.sponsor;
    const tx = decodeSignedArtifact(
      request.rawTx,
      sponsor ? (feePayer, message) => sponsor.signAsSolanaFeePayer(feePayer, message) : undefined,
    );
    let verdict = await this.dataSource.transaction((manager) => this.decide(manager, request.swapId, tx));
    if (verdict.kind === 'reissue') {
      const { row, error } = verdict;
      // Its own transaction: the expiry answer stands even if the fresh payload cannot be built now.
      await this.dataSource
        .transaction((manager) => this.issuer.reissue(row, manager))
        .catch((reason: Error) =>
          this.logger.error({
            msg: 'fresh Solana payload after expiry failed',
            swapId: row.swapId,
            error: reason.message,
          }),
        );
      verdict = { kind: 'error', error };
    }
    if (verdict.kind === 'error') throw verdict.error;
    if (verdict.broadcast) await this.broadcast(verdict.row);
    return resultOf(verdict.row);
  }

  private async decide(manager: EntityManager, swapId: string, tx: SignedArtifact): Promise<Verdict> {
    // Lock the swap's current request: two submissions of one swap are decided one after the other.
    const [current] = await manager
      .createQueryBuilder(SigningRequestEntity, 'r')
      .where('r.swap_id = :swapId AND r.status <> :superseded', { swapId, superseded: 'superseded' })
      .orderBy('r.step_index', 'DESC')
      .addOrderBy('r.created_at', 'DESC')
      .limit(1)
      .setLock('pessimistic_write')
      .getMany();

    const known = await manager.findOne(SigningRequestEntity, { where: recordedSubmissionOf(tx, swapId) });
    if (known) {
      if (known.swapId !== swapId) {
        return {
          kind: 'error',
          error: new CodedError(
            ErrorCodes.TX_REQUEST_MISMATCH,
            'This transaction was submitted for another swap',
            { txHash: tx.hash },
          ),
        };
      }
      if (isCoSigned(tx)) {
        // Same message, same id: the user's signature of this submission must verify all the same.
        const refused = refusalOf(known, () =>
          verifySignedArtifact(tx, known.payload, { feePayerSignsLater: true }),
        );
        if (refused) return refused;
      }
      if (known.status === 'failed' && known.failureCode === StepFailureCodes.rejected) {
        return {
          kind: 'error',
          error: new CodedError(
            ErrorCodes.TX_REQUEST_INVALID,
            `The node rejected this transaction: ${known.failureReason}`,
            { txHash: tx.hash },
          ),
        };
      }
      return { kind: 'accepted', row: known, broadcast: false };
    }
    if (!current)
      return {
        kind: 'error',
        error: new CodedError(ErrorCodes.SWAP_NOT_FOUND, `No signing request for swap ${swapId}`),
      };

    const step = { stepIndex: current.stepIndex, stepCount: current.stepCount };
    switch (current.status) {
      case 'waiting':
        return {
          kind: 'error',
          error: new CodedError(
            ErrorCodes.TX_REQUEST_NOT_YET_VALID,
            'The current step is waiting for its precondition',
            { ...step, readyAtMs: current.readyAtMs },
          ),
        };
      case 'submitted':
        return {
          kind: 'error',
          error: new CodedError(
            ErrorCodes.TX_REQUEST_INVALID,
            'A transaction for the current step was already submitted',
            { ...step, txHash: current.txHash },
          ),
        };
      case 'confirmed':
      case 'skipped':
        if (current.stepIndex >= current.stepCount) {
          return {
            kind: 'error',
            error: new CodedError(ErrorCodes.EXECUTION_TERMINAL, 'Every step of this swap is done', {
              ...step,
              reason: 'completed',
            }),
          };
        }
        return {
          kind: 'error',
          error: new CodedError(ErrorCodes.TX_REQUEST_NOT_YET_VALID, 'The next step is not ready yet', {
            ...step,
            readyAtMs: null,
          }),
        };
      case 'failed':
      case 'unavailable':
        return {
          kind: 'error',
          error: new CodedError(ErrorCodes.EXECUTION_TERMINAL, 'The swap failed', {
            ...step,
            reason: current.failureReason,
          }),
        };
      case 'expired':
        return { kind: 'error', error: expiredError(current) };
      case 'superseded':
        throw new Error('unreachable: superseded rows are filtered out');
      case 'ready':
        break;
    }
    if (current.expiresAtMs !== null && this.now() > current.expiresAtMs) {
      current.status = 'expired';
      await saveSigningRequest(manager, current);
      return { kind: 'error', error: expiredError(current) };
    }

    const family = artifactFormFor(this.chains.familyOf(current.chain), current.payload);
    if (family !== tx.family) {
      return {
        kind: 'error',
        error: new CodedError(
          ErrorCodes.TX_REQUEST_MISMATCH,
          `The current step on ${current.chain} needs ${ARTIFACT_NEEDED[family]}`,
          {
            ...step,
            mismatches: [{ field: 'chainFamily', expected: family, actual: tx.family }],
          },
        ),
      };
    }
    if (!isSignedTransaction(tx)) return this.relay(manager, current, tx.signature);
    const coSigns = feePayerSignsLater(current);
    const refused = refusalOf(current, () =>
      verifySignedArtifact(tx, current.payload, { feePayerSignsLater: coSigns }),
    );
    if (refused) return refused;
    const stale = await this.checkStillLandable(current, tx);
    if (stale) return stale;
    if (coSigns) return this.coSign(manager, current, tx);
    current.status = 'submitted';
    current.rawTx = tx.rawTx;
    current.txHash = tx.hash;
    current.broadcastAt = new Date(this.now());
    current.nextCheckAtMs = this.now() + this.policy.firstCheckDelayMs;
    await saveSigningRequest(manager, current);
    await this.events.submitted(manager, current);
    return { kind: 'accepted', row: current, broadcast: true };
  }

  /**
   * A typed-data step: the signature must be `from`'s over the issued typed data; a relayer then
   * sends, and pays for, the transaction carrying it. A submit retried after a crash finds the
   * transaction already sent for the step instead of sending another. The row is `submitted` with
   * the relayer's transaction hash; nothing is broadcast after commit.
   */
  private async relay(
    manager: EntityManager,
    current: SigningRequestEntity,
    signature: string,
  ): Promise<Verdict> {
    const step = { stepIndex: current.stepIndex, stepCount: current.stepCount };
    let call;
    try {
      call = relayableCallOf(
        current.payload as EvmTypedDataSigningPayload,
        current.sponsored,
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
          return {
            kind: 'error',
            error: new CodedError(error.code, error.message, { ...step, ...error.details }),
          };
        }
        throw error;
      }
    }
    current.status = 'submitted';
    current.rawTx = signature;
    current.txHash = sent.txHash;
    current.sponsoredTxId = sent.id;
    current.broadcastAt = new Date(this.now());
    current.nextCheckAtMs = this.now() + this.policy.firstCheckDelayMs;
    await saveSigningRequest(manager, current);
    await this.events.submitted(manager, current);
    return { kind: 'accepted', row: current, broadcast: false };
  }

  /**
   * A signed transaction that can never land as it is (a Solana blockhash that aged out) expires the
   * request, and a fresh payload is issued for the next GET. When the chain cannot tell now, it is
   * accepted: the tracker resends it and fails the step if it never lands.
   */
  private async checkStillLandable(
    current: SigningRequestEntity,
    tx: SignedTransactionArtifact,
  ): Promise<Verdict | null> {
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
   * A sponsored Solana step, checked: the fee payer's signature is added, the fully signed
   * transaction recorded as the step's rawTx (the tracker resends it as it is) under its id (the
   * fee payer's signature), and in the sponsorship ledger, in this transaction; it is broadcast after
   * commit. A fee payer no longer configured cannot sign: 503 SPONSORSHIP_UNAVAILABLE.
   */
  private async coSign(
    manager: EntityManager,
    current: SigningRequestEntity,
    tx: SignedTransactionArtifact,
  ): Promise<Verdict> {
    if (!isCoSigned(tx) || !this.sponsor) {
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
    current.sponsoredTxId = await this.sponsor.recordSolana(manager, {
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
    current.broadcastAt = new Date(this.now());
    current.nextCheckAtMs = this.now() + this.policy.firstCheckDelayMs;
    await saveSigningRequest(manager, current);
    await this.events.submitted(manager, current);
    return { kind: 'accepted', row: current, broadcast: true };
  }

  /**
   * Sends the recorded transaction through its chain's family client. A node that cannot be reached
   * leaves the row `submitted`: the confirmation tracker sends it again. A node that refuses it fails
   * the step.
   */
  private async broadcast(row: SigningRequestEntity): Promise<void> {
    const lookup = this.chains.signing(row.chain);
    if (!lookup.ok) {
      this.logger.error({
        msg: 'submitted transaction has no RPC to broadcast to; the tracker retries',
        swapId: row.swapId,
        chain: row.chain,
      });
      return;
    }
    if (row.gasDropId && !(await this.gasDropLanded(row.gasDropId))) {
      // The gas the service sent is not mined yet: the node would refuse the transaction for
      // lack of funds. The confirmation tracker sends it once the drop has landed.
      this.logger.warn({
        msg: 'gas drop not mined yet; the tracker broadcasts later',
        swapId: row.swapId,
        txHash: row.txHash,
      });
      return;
    }
    const outcome = await lookup.client.broadcast(row.rawTx!, row.txHash!);
    switch (outcome.kind) {
      case 'sent':
        this.logger.log({
          msg: 'transaction broadcast',
          swapId: row.swapId,
          stepIndex: row.stepIndex,
          txHash: row.txHash,
        });
        return;
      case 'unreachable':
        this.logger.warn({
          msg: 'broadcast failed, RPC unreachable; the tracker retries',
          txHash: row.txHash,
          error: outcome.message,
        });
        return;
      case 'already-known':
        this.logger.log({
          msg: 'node already knows the transaction',
          txHash: row.txHash,
          answer: outcome.message,
        });
        return;
      case 'rejected':
        await this.dataSource.transaction(async (manager) => {
          row.status = 'failed';
          row.failureCode = StepFailureCodes.rejected;
          row.failureReason = outcome.message;
          row.nextCheckAtMs = null;
          await saveSigningRequest(manager, row);
          await this.events.failed(manager, row);
        });
        throw new CodedError(
          ErrorCodes.TX_REQUEST_INVALID,
          `The node rejected the transaction: ${outcome.message}`,
          { txHash: row.txHash },
        );
    }
  }

  /** Waits a little for the gas sent ahead of a covered transaction to be mined. */
  private async gasDropLanded(dropId: string): Promise<boolean> {
    if (!this.sponsor) return true;
    for (let attempt = 0; attempt < GAS_DROP_WAIT_ATTEMPTS; attempt++) {
      const status = await this.sponsor.status(dropId);
      if (status.state === 'confirmed') return true;
      if (status.state !== 'pending') return false;
      await new Promise((resolve) => setTimeout(resolve, GAS_DROP_POLL_MS));
    }
    return false;
  }
}

/** How long a broadcast waits for the gas drop of a covered transaction (40 × 250 ms = 10 s). */
const GAS_DROP_WAIT_ATTEMPTS = 40;
const GAS_DROP_POLL_MS = 250;

/** A TX_REQUEST_MISMATCH (or other CodedError) of `check`, with the step's position; null when it passes. */
function refusalOf(row: SigningRequestEntity, check: () => void): Verdict | null {
  try {
    check();
    return null;
  } catch (error) {
    if (!(error instanceof CodedError)) throw error;
    return {
      kind: 'error',
      error: new CodedError(error.code, error.message, {
        stepIndex: row.stepIndex,
        stepCount: row.stepCount,
        ...error.details,
      }),
    };
  }
}

function expiredError(row: SigningRequestEntity): CodedError {
  return new CodedError(
    ErrorCodes.tx_request_expired,
    'The signing request expired; GET /swap/{swapId}/signing for a fresh payload',
    {
      stepIndex: row.stepIndex,
      stepCount: row.stepCount,
      expiresAtMs: row.expiresAtMs,
    },
  );
}
