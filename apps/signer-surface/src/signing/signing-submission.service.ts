import { saveSigningRequest } from './save-signing-request';
import { failStep } from './step-failure';
import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  BitcoinPsbtSigningPayload,
  CodedError,
  ErrorCodes,
  EvmSigningPayload,
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
  assertNoMismatch,
  compareSentWithPayload,
  EvmChainClient,
  BitcoinArtifact,
  bitcoinFeeInputOf,
  completeSponsoredBitcoinStep,
  VerifiedBitcoinStep,
  verifySignedBitcoinStep,
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
import { feePayerCostOf, feePayerShortfallOf } from './sponsored/fee-payer-funds';
import { feePayerSignsLater } from './sponsored/sponsored-payload-issues';
import { relayableCallOf } from './sponsored/sponsored-signature';

/**
 * What the accepting transaction decided; errors that record state are thrown after commit.
 * `broadcast`: the signed transaction to send after commit (none: nothing to send now).
 */
type Verdict =
  | { kind: 'accepted'; row: SigningRequestEntity; broadcast: SignedTransactionArtifact | null }
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
 * not broadcast a second time. It never waits on the chain: a relayer's transaction is sent (not
 * mined) before the answer, and a covered transaction whose gas drop is not mined yet is left to the
 * confirmation tracker, which broadcasts it once the drop is mined.
 */
export interface SubmissionPolicy {
  /** The tracker's first look; the broadcast right after commit normally lands before it. */
  firstCheckDelayMs: number;
  /**
   * How long a txHash submission waits for the chain's node to know the transaction (a wallet's
   * own RPC may have it a moment before ours), looking every `sentTxPollMs`; then TRANSACTION_NOT_FOUND.
   */
  sentTxVisibleWithinMs: number;
  sentTxPollMs: number;
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
    const { rawTx, txHash } = request;
    let tx: SignedArtifact;
    if (txHash !== undefined && rawTx === undefined) {
      tx = await this.sentTransactionOf(request.swapId, txHash);
    } else if (rawTx !== undefined && txHash === undefined) {
      tx = decodeSignedArtifact(
        rawTx,
        sponsor ? (feePayer, message) => sponsor.signAsSolanaFeePayer(feePayer, message) : undefined,
      );
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
    const known = await manager.findOne(SigningRequestEntity, { where: { txHash: hash } });
    const row = known ?? (await currentRequestOf(manager, swapId, false));
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
  ): Promise<Verdict> {
    // Lock the swap's current request: two submissions of one swap are decided one after the other.
    const current = await currentRequestOf(manager, swapId, true);

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
    if (current.expiresAtMs !== null && this.now() > current.expiresAtMs) {
      current.status = 'expired';
      await saveSigningRequest(manager, current);
      return { kind: 'error', error: expiredError(current) };
    }
    if (sentByWallet) {
      const refusal = txHashRefusalOf(current);
      if (refusal) return { kind: 'error', error: refusal };
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
    if (tx.family === 'bitcoin') return this.completeBitcoin(manager, current, tx);
    if (sentByWallet && tx.family === 'evm') return this.follow(manager, current, tx);
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
    // A covered transaction whose gas drop is not mined yet would be refused for lack of funds: it
    // is accepted, not broadcast (broadcastAt null), and the tracker sends it on its next pass once
    // the drop is mined, or fails the step if the drop never delivers.
    const send = await this.gasDropLanded(current);
    return this.accept(manager, current, send ? 'after-commit' : 'by-tracker', tx);
  }

  /**
   * Records the accepted step (`submitted`, its signing.submitted event) in the deciding
   * transaction. `sent`: the relayers already sent it; `after-commit`: the caller broadcasts `tx`
   * once committed; `by-tracker`: nothing is sent now, the confirmation tracker looks at once.
   */
  private async accept(
    manager: EntityManager,
    row: SigningRequestEntity,
    broadcast: 'sent' | 'after-commit' | 'by-tracker',
    tx: SignedTransactionArtifact | null = null,
  ): Promise<Verdict> {
    const now = this.now();
    row.broadcastAt = broadcast === 'by-tracker' ? null : new Date(now);
    row.nextCheckAtMs = broadcast === 'by-tracker' ? now : now + this.policy.firstCheckDelayMs;
    await saveSigningRequest(manager, row);
    await this.events.submitted(manager, row, now);
    return { kind: 'accepted', row, broadcast: broadcast === 'after-commit' ? tx : null };
  }

  /**
   * A user-paid EVM step whose transaction the wallet sent itself (an injected wallet such as
   * MetaMask can only sign and send): it must be the issued call from the issued sender on the
   * issued chain, at a nonce not below the payload's; its nonce and gas are the wallet's. It is then
   * followed exactly as one the service broadcast (the tracker sends the same bytes again if the
   * node loses it), never sent now.
   */
  private async follow(
    manager: EntityManager,
    current: SigningRequestEntity,
    tx: Extract<SignedTransactionArtifact, { family: 'evm' }>,
  ): Promise<Verdict> {
    const payload = (current.payload as EvmSigningPayload).transaction;
    const refused = refusalOf(current, () =>
      assertNoMismatch(compareSentWithPayload(tx.tx, payload), 'The transaction sent'),
    );
    if (refused) return refused;
    current.status = 'submitted';
    current.rawTx = tx.rawTx;
    current.txHash = tx.hash;
    return this.accept(manager, current, 'sent');
  }

  /**
   * A typed-data step: the signature must be `from`'s over the issued typed data; a relayer then
   * sends, and pays for, the transaction carrying it. A submit retried after a crash finds the
   * transaction already sent for the step instead of sending another. The row is `submitted` with
   * the relayer's transaction hash; nothing is broadcast after commit. Sending is estimating the gas
   * and broadcasting, never waiting for a block: a call that would revert answers TX_REQUEST_INVALID
   * at once, and whatever happens to the transaction later (mined, fee-bumped, dropped, cancelled,
   * lost) is the confirmation tracker's.
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
    return this.accept(manager, current, 'sent');
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
    tx: Exclude<SignedTransactionArtifact, BitcoinArtifact>,
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
    return this.accept(manager, current, 'after-commit', tx);
  }

  /**
   * A Bitcoin step: what the wallet returned must be the issued PSBT with the user's inputs validly
   * signed (verifySignedBitcoinStep); the service then signs its fee input with the fee wallet's key,
   * and the completed transaction is recorded as the step's rawTx under its txid, and in the
   * sponsorship ledger (which marks the held fee input spent), in this transaction; it is broadcast
   * after commit. A fee wallet no longer configured cannot sign: 503 SPONSORSHIP_UNAVAILABLE.
   */
  private async completeBitcoin(
    manager: EntityManager,
    current: SigningRequestEntity,
    tx: BitcoinArtifact,
  ): Promise<Verdict> {
    const step = { stepIndex: current.stepIndex, stepCount: current.stepCount };
    const payload = current.payload as BitcoinPsbtSigningPayload;
    let verified: VerifiedBitcoinStep;
    try {
      verified = verifySignedBitcoinStep(payload.psbt, tx.rawTx);
    } catch (error) {
      if (!(error instanceof CodedError)) throw error;
      return {
        kind: 'error',
        error: new CodedError(error.code, error.message, { ...step, ...error.details }),
      };
    }
    const feeWallet = (current.executionHints as Record<string, string> | null)?.feeWallet;
    const completed =
      feeWallet && this.sponsor
        ? this.sponsor.withBitcoinFeeWalletKey(feeWallet, (key) =>
            completeSponsoredBitcoinStep(verified, key),
          )
        : null;
    if (!completed || !feeWallet || !this.sponsor) {
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
    current.sponsoredTxId = await this.sponsor.recordBitcoin(manager, {
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
    return this.accept(manager, current, 'after-commit', {
      family: 'bitcoin',
      hash: completed.txid,
      rawTx: completed.rawTxHex,
    });
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
    const outcome = await client.broadcast(row.rawTx!, row.txHash!);
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
    const shortfall = feePayerSignsLater(row)
      ? await feePayerShortfallOf(client, row, outcome.message)
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

  /**
   * One look at the gas drop of a covered transaction, never a wait: true once it is mined (or the
   * step has none). A ledger that cannot be read leaves the broadcast to the tracker.
   */
  private async gasDropLanded(row: SigningRequestEntity): Promise<boolean> {
    if (!row.gasDropId || !this.sponsor) return true;
    try {
      return (await this.sponsor.status(row.gasDropId)).state === 'confirmed';
    } catch (error) {
      this.logger.warn({
        msg: 'gas drop status unknown; the tracker broadcasts later',
        swapId: row.swapId,
        gasDropId: row.gasDropId,
        error: (error as Error).message,
      });
      return false;
    }
  }
}

/** The swap's current signing request (the latest step's, not superseded); `lock`: FOR UPDATE. */
async function currentRequestOf(
  manager: EntityManager,
  swapId: string,
  lock: boolean,
): Promise<SigningRequestEntity | undefined> {
  const query = manager
    .createQueryBuilder(SigningRequestEntity, 'r')
    .where('r.swap_id = :swapId AND r.status <> :superseded', { swapId, superseded: 'superseded' })
    .orderBy('r.step_index', 'DESC')
    .addOrderBy('r.created_at', 'DESC')
    .limit(1);
  const [current] = await (lock ? query.setLock('pessimistic_write') : query).getMany();
  return current;
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
  if (row.sponsored) {
    return new CodedError(
      ErrorCodes.TX_HASH_NOT_ACCEPTED,
      'This step is sponsored: the service sends it once the gas it covers is mined. Submit the signed transaction as rawTx',
      { ...details, gasPaidBy: 'service' },
    );
  }
  return null;
}

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
      feePayer: feePayerCostOf(row)?.feePayer ?? null,
    },
  );
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
