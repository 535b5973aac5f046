import { Injectable, Logger } from '@nestjs/common';
import { CodedError, ErrorCodes, SigningSubmitRequest, SigningSubmitResult } from '@swapgw/contracts';
import {
  ARTIFACT_NEEDED,
  artifactFormFor,
  decodeSignedArtifact,
  EvmChainClient,
  isCoSigned,
  recordedSubmissionOf,
  SignedArtifact,
  SignedTransactionArtifact,
  verifySignedArtifact,
} from '@swapgw/chains/families';
import { DataSource, type EntityManager } from 'typeorm';
import { SignerChains } from '../chains/signer-chains';
import { Clock } from '@swapgw/runtime';
import {
  expiredError,
  PayloadKindRegistry,
  refusalOf,
  SubmissionPolicy,
  type SubmissionVerdict,
} from './payload-kinds';
import { saveSigningRequest, SigningRequestsRepository } from './signing-requests.repository';
import { SigningEventsOutbox, StepFailureCodes } from './signing-events.outbox';
import { SigningPayloadIssuer } from './signing-payload.issuer';
import { requiredColumn } from './signing-request-columns';
import { SigningRequestEntity } from './signing-request.entity';
import { failStep } from './step-failure';

const resultOf = (row: SigningRequestEntity): SigningSubmitResult => ({
  swapId: row.swapId,
  stepIndex: row.stepIndex,
  txHash: requiredColumn(row, 'txHash'),
  status: 'submitted',
});

/**
 * signing.submit: verifies the client's signed transaction against the payload issued for the
 * swap's current step, records it with a signing.submitted event in one transaction, then
 * broadcasts it. Idempotent on the transaction hash: the same rawTx again answers the same and is
 * not broadcast a second time. It never waits on the chain: a relayer's transaction is sent (not
 * mined) before the answer, and a covered transaction whose gas drop is not mined yet is left to the
 * confirmation tracker, which broadcasts it once the drop is mined. What a submission does depends on
 * the payload's kind (payload-kinds/: verify, relay, co-sign, complete, account): this flow checks
 * the step may take one, then hands it to the kind's handler, and broadcasts what it accepted.
 */
@Injectable()
export class SigningSubmissionService {
  private readonly logger = new Logger(SigningSubmissionService.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly chains: SignerChains,
    private readonly events: SigningEventsOutbox,
    private readonly requests: SigningRequestsRepository,
    private readonly policy: SubmissionPolicy,
    private readonly issuer: SigningPayloadIssuer,
    /**
     * What each payload kind does with a submission of it; a kind whose fee payers co-sign the
     * transactions they pay for (Solana) signs them as they are decoded.
     */
    private readonly kinds: PayloadKindRegistry,
    private readonly clock: Clock,
  ) {}

  async submit(request: SigningSubmitRequest): Promise<SigningSubmitResult> {
    const { rawTx, txHash } = request;
    let tx: SignedArtifact;
    if (txHash !== undefined && rawTx === undefined) {
      tx = await this.sentTransactionOf(request.swapId, txHash);
    } else if (rawTx !== undefined && txHash === undefined) {
      tx = decodeSignedArtifact(rawTx, (feePayer, message) => this.kinds.signAsFeePayer(feePayer, message));
    } else {
      throw new CodedError(ErrorCodes.VALIDATION_FAILED, 'Send exactly one of rawTx and txHash', {
        fields: [{ field: 'rawTx', message: 'send exactly one of rawTx and txHash' }],
      });
    }
    const sentByWallet = txHash !== undefined;
    let verdict = await this.dataSource.transaction((manager) =>
      this.decide(manager, request.swapId, tx, sentByWallet),
    );
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
    if (verdict.broadcast) await this.broadcast(verdict.row, verdict.broadcast);
    return resultOf(verdict.row);
  }

  /**
   * The transaction a wallet sent itself (`txHash`), read from the chain of the step it is for: the
   * step that recorded it already, else the swap's current one, which must take a txHash
   * (txHashRefusalOf). The node may learn of it a moment after the wallet's own RPC: it is looked
   * for during `sentTxVisibleWithinMs`, then TRANSACTION_NOT_FOUND. Not locked: decide() judges it
   * again under the lock.
   */
  private async sentTransactionOf(swapId: string, txHash: string): Promise<SignedTransactionArtifact> {
    const hash = txHash.toLowerCase();
    const manager = this.dataSource.manager;
    const known = await this.requests.recordedSubmission(manager, { txHash: hash });
    const row = known ?? (await this.requests.currentRequestOf(manager, swapId, false));
    if (!row) throw new CodedError(ErrorCodes.SWAP_NOT_FOUND, `No signing request for swap ${swapId}`);
    const refusal = !known && row.status === 'ready' ? txHashRefusalOf(row) : null;
    if (refusal) throw refusal;
    const lookup = this.chains.signing(row.chain);
    if (!lookup.ok || lookup.client.family !== 'evm') {
      throw new CodedError(
        ErrorCodes.SIGNING_SURFACE_UNAVAILABLE,
        `No EVM RPC to read ${hash} from on ${row.chain}`,
        { chain: row.chain },
      );
    }
    const tx = await this.waitUntilVisible(lookup.client, hash);
    return { family: 'evm', hash: tx.hash, tx, rawTx: tx.serialized };
  }

  private async waitUntilVisible(client: EvmChainClient, txHash: string) {
    const attempts = Math.max(1, Math.ceil(this.policy.sentTxVisibleWithinMs / this.policy.sentTxPollMs) + 1);
    for (let attempt = 1; ; attempt++) {
      let tx;
      try {
        tx = await client.sentTransaction(txHash);
      } catch (error) {
        if (error instanceof CodedError) throw error;
        throw new CodedError(
          ErrorCodes.SIGNING_SURFACE_UNAVAILABLE,
          `The RPC of ${client.chain.id} did not answer eth_getTransactionByHash`,
          { chain: client.chain.id, cause: (error as Error).message },
        );
      }
      if (tx) return tx;
      if (attempt >= attempts) {
        throw new CodedError(
          ErrorCodes.TRANSACTION_NOT_FOUND,
          `${client.chain.id} does not know the transaction ${txHash} (looked for ${this.policy.sentTxVisibleWithinMs} ms): ` +
            'submit the hash eth_sendTransaction answered, on the chain of the step; retry if it was just sent',
          { chain: client.chain.id, txHash },
        );
      }
      await new Promise((resolve) => setTimeout(resolve, this.policy.sentTxPollMs));
    }
  }

  /**
   * `sentByWallet`: `tx` is a transaction the wallet broadcast itself (a txHash), checked against
   * what it chose freely (compareSentWithPayload) and followed as it is, never broadcast by us.
   */
  private async decide(
    manager: EntityManager,
    swapId: string,
    tx: SignedArtifact,
    sentByWallet = false,
  ): Promise<SubmissionVerdict> {
    // Lock the swap's current request: two submissions of one swap are decided one after the other.
    const current = await this.requests.currentRequestOf(manager, swapId, true);

    const known = await this.requests.recordedSubmission(manager, recordedSubmissionOf(tx, swapId));
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
      if (known.status === 'failed' && known.failureCode === StepFailureCodes.feePayerUnavailable) {
        return { kind: 'error', error: feePayerUnavailable(known, known.failureReason ?? 'unknown') };
      }
      return { kind: 'accepted', row: known, broadcast: null };
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
    if (current.expiresAtMs !== null && this.clock.nowMs() > current.expiresAtMs) {
      current.status = 'expired';
      await saveSigningRequest(manager, current);
      return { kind: 'error', error: expiredError(current) };
    }
    if (sentByWallet) {
      const refusal = txHashRefusalOf(current);
      if (refusal) return { kind: 'error', error: refusal };
    }

    const form = artifactFormFor(this.chains.familyOf(current.chain), current.payload);
    if (form !== tx.family) {
      return {
        kind: 'error',
        error: new CodedError(
          ErrorCodes.TX_REQUEST_MISMATCH,
          `The current step on ${current.chain} needs ${ARTIFACT_NEEDED[form]}`,
          {
            ...step,
            mismatches: [{ field: 'chainFamily', expected: form, actual: tx.family }],
          },
        ),
      };
    }
    return this.kinds.forSignedForm(form).submit({ manager, current, signed: tx, sentByWallet });
  }

  /**
   * Sends the recorded transaction through its chain's family client. A node that cannot be reached
   * leaves the row `submitted`: the confirmation tracker sends it again. A node that refuses it fails
   * the step (TX_REJECTED, 409 TX_REQUEST_INVALID), unless the refusal is not the user's:
   *  - the service's fee payer of a sponsored Solana step cannot pay (drained since the payload was
   *    issued): FEE_PAYER_UNAVAILABLE, 503 SPONSORSHIP_UNAVAILABLE;
   *  - its Solana blockhash expired between the check before commit and the broadcast (or the check
   *    could not be made): left `submitted`, the tracker finds it can never land and fails the step
   *    with the expiry as its reason, like any accepted transaction that never landed.
   */
  private async broadcast(row: SigningRequestEntity, tx: SignedTransactionArtifact): Promise<void> {
    const lookup = this.chains.signing(row.chain);
    if (!lookup.ok) {
      this.logger.error({
        msg: 'submitted transaction has no RPC to broadcast to; the tracker retries',
        swapId: row.swapId,
        chain: row.chain,
      });
      return;
    }
    const client = lookup.client;
    const outcome = await client.broadcast(requiredColumn(row, 'rawTx'), requiredColumn(row, 'txHash'));
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
        break;
    }
    // The way the step's sponsorship mode is issued knows whether the service's fee payer was short.
    const sponsorship = this.kinds.sponsoredIssueOf(row);
    const shortfall = sponsorship?.feePayerSignsLater
      ? ((await sponsorship.feePayerShortfallOf?.(client, row, outcome.message)) ?? null)
      : null;
    if (shortfall) {
      await this.failAfterCommit(row, StepFailureCodes.feePayerUnavailable, shortfall.reason);
      throw feePayerUnavailable(row, shortfall.reason);
    }
    if (!(await client.isStillLandable(tx).catch(() => true))) {
      this.logger.warn({
        msg: 'node refused the transaction, its blockhash expired since the check; the tracker ends the step',
        swapId: row.swapId,
        txHash: row.txHash,
        answer: outcome.message,
      });
      return;
    }
    await this.failAfterCommit(row, StepFailureCodes.rejected, outcome.message);
    throw new CodedError(
      ErrorCodes.TX_REQUEST_INVALID,
      `The node rejected the transaction: ${outcome.message}`,
      { txHash: row.txHash },
    );
  }

  /** The step fails after its acceptance committed (a broadcast refused), with its event. */
  private async failAfterCommit(row: SigningRequestEntity, code: string, reason: string): Promise<void> {
    await this.dataSource.transaction((manager) => failStep(manager, this.events, row, code, reason));
    this.logger.warn({
      msg: 'broadcast refused; step failed',
      swapId: row.swapId,
      txHash: row.txHash,
      code,
      reason,
    });
  }
}

/**
 * Why a step cannot be completed with a txHash: only a user-paid `evm-transaction` can. Typed data
 * is a signature, not a transaction; a sponsored step is the service's to send (a relayer carries
 * typed data; the wallet's own covered transaction goes out once the gas sent ahead of it is mined).
 */
function txHashRefusalOf(row: SigningRequestEntity): CodedError | null {
  const payloadType = row.payload?.type ?? null;
  const details = { stepIndex: row.stepIndex, stepCount: row.stepCount, payloadType };
  if (payloadType !== 'evm-transaction') {
    return new CodedError(
      ErrorCodes.TX_HASH_NOT_ACCEPTED,
      `A txHash completes only an evm-transaction step; this step's payload is ${payloadType ?? 'not issued'}: submit what the wallet signed as rawTx`,
      details,
    );
  }
  if (row.spec.sponsored) {
    return new CodedError(
      ErrorCodes.TX_HASH_NOT_ACCEPTED,
      'This step is sponsored: the service sends it once the gas it covers is mined. Submit the signed transaction as rawTx',
      { ...details, gasPaidBy: 'service' },
    );
  }
  return null;
}

/** The service's fee payer cannot pay a sponsored Solana step: the service's problem, not the user's. */
function feePayerUnavailable(row: SigningRequestEntity, reason: string): CodedError {
  return new CodedError(
    ErrorCodes.SPONSORSHIP_UNAVAILABLE,
    `Gas sponsorship on ${row.chain} is unavailable: ${reason}`,
    {
      chain: row.chain,
      stepIndex: row.stepIndex,
      stepCount: row.stepCount,
      txHash: row.txHash,
      // The fee payer the step's payload named (its executionHints), whatever its family.
      feePayer: (row.executionHints as Record<string, string> | null)?.feePayer || null,
    },
  );
}
