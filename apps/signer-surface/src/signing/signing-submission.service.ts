import { saveSigningRequest } from './save-signing-request';
import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  CodedError,
  ErrorCodes,
  EvmSigningPayload,
  EvmTypedDataSigningPayload,
  SigningSubmitRequest,
  SigningSubmitResult,
  SolanaSigningPayload,
} from '@swapgw/contracts';
import { keccak256 } from 'ethers';
import { DataSource, type EntityManager } from 'typeorm';
import { SignerChains } from '../chains/signer-chains';
import { CLOCK, type Clock } from '../clock';
import { isRpcUnreachable, shortMessageOf } from './evm/evm-chain-errors';
import { compareWithPayload, decodeSignedEvmTransaction, DecodedEvmTransaction } from './evm/evm-signed-transaction';
import { SigningEventsOutbox, StepFailureCodes } from './signing-events.outbox';
import { SigningPayloadIssuer } from './signing-payload.issuer';
import { SigningRequestEntity } from './signing-request.entity';
import { LAMPORTS_PER_SIGNATURE } from './solana/solana-fees';
import { isSolanaRpcUnreachable } from './solana/solana-step-payload';
import {
  DecodedSolanaTransaction,
  decodeSignedSolanaTransaction,
  verifySignedSolanaTransaction,
  withFeePayerSignature,
} from './solana/solana-transaction';
import { GAS_SPONSOR, type GasSponsor } from './sponsored/gas-sponsor';
import { isTypedDataSignature, relayableCallOf } from './sponsored/sponsored-signature';

/**
 * The client's signed artifact, decoded by its form: a 0x 65- (or 64-) byte signature of typed data
 * (a sponsored step; `hash` is its keccak256, an id only), other 0x-hex is an EVM transaction,
 * anything else must be Solana base64.
 */
type SignedArtifact =
  | { family: 'evm'; hash: string; tx: DecodedEvmTransaction }
  | { family: 'evm-signature'; hash: string; signature: string }
  | SolanaArtifact;

/**
 * A Solana transaction as the client signed it (`tx`), and, when its fee payer is one of the
 * service's (a sponsored step), the same transaction with the fee payer's signature added
 * (`coSigned`). Its id (`hash`) is the first signature: the fee payer's, so on a sponsored step it
 * exists only once the service co-signs; Ed25519 signatures being deterministic, the same message
 * always gets the same one, which makes a resubmission find the same id.
 */
type SolanaArtifact = { family: 'solana'; hash: string; tx: DecodedSolanaTransaction; coSigned: DecodedSolanaTransaction | null };

/** Signs a Solana message as `feePayer` when that is one of the service's fee payers; else null. */
type FeePayerSigner = (feePayer: string, message: Uint8Array) => Uint8Array | null;

function decodeSigned(rawTx: string, signAsFeePayer?: FeePayerSigner): SignedArtifact {
  if (isTypedDataSignature(rawTx)) {
    const signature = rawTx.trim().toLowerCase();
    return { family: 'evm-signature', hash: keccak256(signature), signature };
  }
  if (/^0x/i.test(rawTx.trim())) {
    const tx = decodeSignedEvmTransaction(rawTx);
    return { family: 'evm', hash: tx.hash, tx };
  }
  const tx = decodeSignedSolanaTransaction(rawTx);
  // Co-signed here only to know the id; nothing signed leaves unless the message is the issued one.
  const feePayerSignature = signAsFeePayer?.(tx.feePayer, tx.messageBytes);
  const coSigned = feePayerSignature ? withFeePayerSignature(tx, feePayerSignature) : null;
  return { family: 'solana', hash: coSigned?.signature ?? tx.signature, tx, coSigned };
}

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

/** Node answers meaning "this exact transaction is already in the pool or mined". */
const ALREADY_KNOWN = /already known|already imported|known transaction|transaction already exists|AlreadyKnown/i;

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
    const tx = decodeSigned(request.rawTx, sponsor ? (feePayer, message) => sponsor.signAsSolanaFeePayer(feePayer, message) : undefined);
    let verdict = await this.dataSource.transaction((manager) => this.decide(manager, request.swapId, tx));
    if (verdict.kind === 'reissue') {
      const { row, error } = verdict;
      // Its own transaction: the expiry answer stands even if the fresh payload cannot be built now.
      await this.dataSource
        .transaction((manager) => this.issuer.reissue(row, manager))
        .catch((reason: Error) => this.logger.error({ msg: 'fresh Solana payload after expiry failed', swapId: row.swapId, error: reason.message }));
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

    const known =
      tx.family === 'evm-signature'
        ? await manager.findOne(SigningRequestEntity, { where: { swapId, rawTx: tx.signature } })
        : await manager.findOne(SigningRequestEntity, { where: { txHash: tx.hash } });
    if (known) {
      if (known.swapId !== swapId) {
        return { kind: 'error', error: new CodedError(ErrorCodes.TX_REQUEST_MISMATCH, 'This transaction was submitted for another swap', { txHash: tx.hash }) };
      }
      if (tx.family === 'solana' && tx.coSigned) {
        // Same message, same id: the user's signature of this submission must verify all the same.
        const refused = refusalOf(known, () => verifySignedSolanaTransaction(tx.tx, known.payload as SolanaSigningPayload, { feePayerSignsLater: true }));
        if (refused) return refused;
      }
      if (known.status === 'failed' && known.failureCode === StepFailureCodes.rejected) {
        return { kind: 'error', error: new CodedError(ErrorCodes.TX_REQUEST_INVALID, `The node rejected this transaction: ${known.failureReason}`, { txHash: tx.hash }) };
      }
      return { kind: 'accepted', row: known, broadcast: false };
    }
    if (!current) return { kind: 'error', error: new CodedError(ErrorCodes.SWAP_NOT_FOUND, `No signing request for swap ${swapId}`) };

    const step = { stepIndex: current.stepIndex, stepCount: current.stepCount };
    switch (current.status) {
      case 'waiting':
        return { kind: 'error', error: new CodedError(ErrorCodes.TX_REQUEST_NOT_YET_VALID, 'The current step is waiting for its precondition', { ...step, readyAtMs: current.readyAtMs }) };
      case 'submitted':
        return { kind: 'error', error: new CodedError(ErrorCodes.TX_REQUEST_INVALID, 'A transaction for the current step was already submitted', { ...step, txHash: current.txHash }) };
      case 'confirmed':
      case 'skipped':
        if (current.stepIndex >= current.stepCount) {
          return { kind: 'error', error: new CodedError(ErrorCodes.EXECUTION_TERMINAL, 'Every step of this swap is done', { ...step, reason: 'completed' }) };
        }
        return { kind: 'error', error: new CodedError(ErrorCodes.TX_REQUEST_NOT_YET_VALID, 'The next step is not ready yet', { ...step, readyAtMs: null }) };
      case 'failed':
      case 'unavailable':
        return { kind: 'error', error: new CodedError(ErrorCodes.EXECUTION_TERMINAL, 'The swap failed', { ...step, reason: current.failureReason }) };
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

    const family = this.chains.familyOf(current.chain) === 'solana' ? 'solana' : current.payload?.type === 'evm-typed-data' ? 'evm-signature' : 'evm';
    if (family !== tx.family) {
      return {
        kind: 'error',
        error: new CodedError(ErrorCodes.TX_REQUEST_MISMATCH, `The current step on ${current.chain} needs ${ARTIFACT_NEEDED[family]}`, {
          ...step,
          mismatches: [{ field: 'chainFamily', expected: family, actual: tx.family }],
        }),
      };
    }
    if (tx.family === 'evm-signature') return this.relay(manager, current, tx.signature);
    if (tx.family === 'solana') {
      const refused = await this.checkSolana(current, tx.tx);
      if (refused) return refused;
      if (current.sponsored?.mode === 'solana-fee-payer') return this.coSignSolana(manager, current, tx);
    } else {
      const payload = current.payload as EvmSigningPayload;
      const mismatches = compareWithPayload(tx.tx, payload.transaction);
      if (mismatches.length > 0) {
        return {
          kind: 'error',
          error: new CodedError(
            ErrorCodes.TX_REQUEST_MISMATCH,
            `The signed transaction differs from the payload in ${mismatches.map((m) => m.field).join(', ')}`,
            { ...step, mismatches },
          ),
        };
      }
    }
    current.status = 'submitted';
    current.rawTx = tx.family === 'solana' ? tx.tx.serialized.toString('base64') : tx.tx.serialized;
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
  private async relay(manager: EntityManager, current: SigningRequestEntity, signature: string): Promise<Verdict> {
    const step = { stepIndex: current.stepIndex, stepCount: current.stepCount };
    let call;
    try {
      call = relayableCallOf(current.payload as EvmTypedDataSigningPayload, current.sponsored, current.from, signature, step);
    } catch (error) {
      if (error instanceof CodedError) return { kind: 'error', error };
      throw error;
    }
    if (!this.sponsor) throw new CodedError(ErrorCodes.SPONSORSHIP_UNAVAILABLE, 'No relayer is configured for sponsored gas');
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
          owner: current.owner ?? 'unknown',
        });
      } catch (error) {
        // The chain refuses it (a used nonce, a passed deadline, a balance gone): the user's error.
        if (error instanceof CodedError && error.code === ErrorCodes.TX_REQUEST_INVALID) {
          return { kind: 'error', error: new CodedError(error.code, error.message, { ...step, ...error.details }) };
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
   * Solana: the signed message must be the issued one, signed by its fee payer (on a sponsored
   * step, the service's: then by every other signer, the user) (TX_REQUEST_MISMATCH), and its
   * blockhash must still be valid: once it aged out the transaction can never land, so the request
   * is expired and a fresh payload is issued for the next GET.
   */
  private async checkSolana(current: SigningRequestEntity, tx: DecodedSolanaTransaction): Promise<Verdict | null> {
    const feePayerSignsLater = current.sponsored?.mode === 'solana-fee-payer';
    const refused = refusalOf(current, () => verifySignedSolanaTransaction(tx, current.payload as SolanaSigningPayload, { feePayerSignsLater }));
    if (refused) return refused;
    const surface = this.chains.solanaSurface(current.chain);
    if (!surface.ok) return null;
    let valid: boolean;
    try {
      valid = (await surface.connection.isBlockhashValid(tx.recentBlockhash, { commitment: 'confirmed' })).value;
    } catch (error) {
      // Cannot tell now: accept; the tracker resends it and fails the step if it never lands.
      this.logger.warn({ msg: 'blockhash validity unknown; accepting', swapId: current.swapId, error: (error as Error).message });
      return null;
    }
    if (valid) return null;
    const error = expiredError(current);
    return { kind: 'reissue', row: current, error: new CodedError(error.code, `The transaction's blockhash is no longer valid. ${error.message}`, error.details) };
  }

  /**
   * A sponsored Solana step, checked: the fee payer's signature is added, the fully signed
   * transaction recorded as the step's rawTx (the tracker resends it as it is) under its id (the
   * fee payer's signature), and in the sponsorship ledger, in this transaction; it is broadcast after
   * commit. A fee payer no longer configured cannot sign: 503 SPONSORSHIP_UNAVAILABLE.
   */
  private async coSignSolana(manager: EntityManager, current: SigningRequestEntity, tx: SolanaArtifact): Promise<Verdict> {
    if (!tx.coSigned || !this.sponsor) {
      return {
        kind: 'error',
        error: new CodedError(ErrorCodes.SPONSORSHIP_UNAVAILABLE, `The fee payer ${tx.tx.feePayer} of this transaction is not one of the service's anymore`, { chain: current.chain }),
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
      owner: current.owner ?? 'unknown',
      signature: tx.coSigned.signature,
      transaction: rawTx,
      maxFeeLamports: BigInt(cost?.estimatedFeeLamports ?? tx.tx.transaction.message.header.numRequiredSignatures * LAMPORTS_PER_SIGNATURE),
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
   * Sends the recorded transaction. A node that cannot be reached leaves the row `submitted`: the
   * confirmation tracker sends it again. A node that refuses it fails the step.
   */
  private async broadcast(row: SigningRequestEntity): Promise<void> {
    if (this.chains.familyOf(row.chain) === 'solana') return this.broadcastSolana(row);
    const surface = this.chains.evmSurface(row.chain);
    if (!surface.ok) {
      this.logger.error({ msg: 'submitted transaction has no RPC to broadcast to; the tracker retries', swapId: row.swapId, chain: row.chain });
      return;
    }
    if (row.gasDropId && !(await this.gasDropLanded(row.gasDropId))) {
      // The gas the service sent is not mined yet: the node would refuse the transaction for
      // lack of funds. The confirmation tracker sends it once the drop has landed.
      this.logger.warn({ msg: 'gas drop not mined yet; the tracker broadcasts later', swapId: row.swapId, txHash: row.txHash });
      return;
    }
    try {
      await surface.provider.broadcastTransaction(row.rawTx!);
      this.logger.log({ msg: 'transaction broadcast', swapId: row.swapId, stepIndex: row.stepIndex, txHash: row.txHash });
    } catch (error) {
      if (isRpcUnreachable(error)) {
        this.logger.warn({ msg: 'broadcast failed, RPC unreachable; the tracker retries', txHash: row.txHash, error: shortMessageOf(error) });
        return;
      }
      const message = shortMessageOf(error);
      // "already known" or "nonce too low" for this very hash: it is in the pool or mined already.
      if (ALREADY_KNOWN.test(message) || (await surface.provider.getTransaction(row.txHash!).catch(() => null))) {
        this.logger.log({ msg: 'node already knows the transaction', txHash: row.txHash, answer: message });
        return;
      }
      await this.dataSource.transaction(async (manager) => {
        row.status = 'failed';
        row.failureCode = StepFailureCodes.rejected;
        row.failureReason = message;
        row.nextCheckAtMs = null;
        await saveSigningRequest(manager, row);
        await this.events.failed(manager, row);
      });
      throw new CodedError(ErrorCodes.TX_REQUEST_INVALID, `The node rejected the transaction: ${message}`, { txHash: row.txHash });
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

  /** sendRawTransaction with preflight: a transaction the node simulates as failing is refused. */
  private async broadcastSolana(row: SigningRequestEntity): Promise<void> {
    const surface = this.chains.solanaSurface(row.chain);
    if (!surface.ok) {
      this.logger.error({ msg: 'submitted transaction has no RPC to broadcast to; the tracker retries', swapId: row.swapId, chain: row.chain });
      return;
    }
    try {
      await surface.connection.sendRawTransaction(Buffer.from(row.rawTx!, 'base64'), { preflightCommitment: 'confirmed', maxRetries: 0 });
      this.logger.log({ msg: 'transaction broadcast', swapId: row.swapId, stepIndex: row.stepIndex, txHash: row.txHash });
    } catch (error) {
      const message = (error as Error).message;
      if (isSolanaRpcUnreachable(error)) {
        this.logger.warn({ msg: 'broadcast failed, RPC unreachable; the tracker retries', txHash: row.txHash, error: message });
        return;
      }
      if (SOLANA_ALREADY_PROCESSED.test(message)) return;
      await this.dataSource.transaction(async (manager) => {
        row.status = 'failed';
        row.failureCode = StepFailureCodes.rejected;
        row.failureReason = message;
        row.nextCheckAtMs = null;
        await saveSigningRequest(manager, row);
        await this.events.failed(manager, row);
      });
      throw new CodedError(ErrorCodes.TX_REQUEST_INVALID, `The node rejected the transaction: ${message}`, { txHash: row.txHash });
    }
  }
}

/** How long a broadcast waits for the gas drop of a covered transaction (40 × 250 ms = 10 s). */
const GAS_DROP_WAIT_ATTEMPTS = 40;
const GAS_DROP_POLL_MS = 250;

const ARTIFACT_NEEDED = {
  evm: 'a signed EVM transaction (0x-hex)',
  'evm-signature': 'the 0x signature (65 bytes) of the issued typed data',
  solana: 'a signed Solana transaction (base64)',
} as const;

/** Solana answers meaning "this very transaction already went through". */
const SOLANA_ALREADY_PROCESSED = /already been processed|AlreadyProcessed/i;

/** A TX_REQUEST_MISMATCH (or other CodedError) of `check`, with the step's position; null when it passes. */
function refusalOf(row: SigningRequestEntity, check: () => void): Verdict | null {
  try {
    check();
    return null;
  } catch (error) {
    if (!(error instanceof CodedError)) throw error;
    return { kind: 'error', error: new CodedError(error.code, error.message, { stepIndex: row.stepIndex, stepCount: row.stepCount, ...error.details }) };
  }
}

function expiredError(row: SigningRequestEntity): CodedError {
  return new CodedError(ErrorCodes.tx_request_expired, 'The signing request expired; GET /swap/{swapId}/signing for a fresh payload', {
    stepIndex: row.stepIndex,
    stepCount: row.stepCount,
    expiresAtMs: row.expiresAtMs,
  });
}
