import { saveSigningRequest, SigningRequestsRepository } from './signing-requests.repository';
import { failStep } from './step-failure';
import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { SignerChains } from '../chains/signer-chains';
import { SignerSurfaceConfig } from '../config/signer-surface.config';
import { Clock, SystemClock } from '@swapgw/runtime';
import { shortMessageOf } from '@swapgw/chains';
import { SigningEventsOutbox, StepFailureCodes } from './signing-events.outbox';
import { SigningRequestEntity } from './signing-request.entity';
import { PeriodicTask } from './periodic-task';
import { SigningChainClient, TransactionProgress } from '@swapgw/chains/families';
import { feePayerShortfallOf } from './payload-kinds/solana-transaction/fee-payer-funds';
import { GAS_SPONSOR, type GasSponsor, type SponsoredTransactionStatus } from './sponsored/gas-sponsor';
import { gasDropEndOf, relayEndOf } from './sponsored/sponsored-ends';
import { carriedByRelayer, feePayerSignsLater } from './sponsored/sponsored-payload-issues';

/** How the confirmation tracker paces its passes, from the validated config. */
@Injectable()
export class ConfirmationPolicy {
  readonly pollMs: number;
  readonly confirmationsRequired: number;
  /** A submitted transaction the node does not know is sent again after this long. */
  readonly rebroadcastAfterMs: number;
  readonly batchSize = 20;

  constructor(config: SignerSurfaceConfig) {
    this.pollMs = config.CONFIRMATION_POLL_MS;
    this.confirmationsRequired = config.CONFIRMATIONS_REQUIRED;
    this.rebroadcastAfterMs = Math.max(config.CONFIRMATION_POLL_MS * 5, 5_000);
  }
}

/**
 * Follows submitted transactions until they are confirmed or failed. Each pass claims due rows with
 * FOR UPDATE SKIP LOCKED, so several instances share the work and a restart simply resumes it.
 */
@Injectable()
export class ConfirmationTracker extends PeriodicTask {
  constructor(
    private readonly dataSource: DataSource,
    private readonly chains: SignerChains,
    private readonly events: SigningEventsOutbox,
    private readonly requests: SigningRequestsRepository,
    private readonly policy: ConfirmationPolicy,
    /** The relayers: a relayed step's transaction may be replaced (fee bump) under a new hash. */
    @Inject(GAS_SPONSOR) private readonly sponsor: GasSponsor | null = null,
    private readonly clock: Clock = new SystemClock(),
  ) {
    super('ConfirmationTracker', policy.pollMs);
  }

  /** One pass over the due submitted requests; answers how many it looked at. */
  async runOnce(): Promise<number> {
    return this.dataSource.transaction(async (manager) => {
      const due = await this.requests.claimDueSubmitted(manager, this.clock.nowMs(), this.policy.batchSize);
      for (const row of due) await this.check(row, manager);
      return due.length;
    });
  }

  /**
   * Where the row's transaction stands, through its chain's family client: included (the swap is
   * `confirming`), confirmed with enough confirmations, failed when it executed with an error. One
   * the node does not know is sent again past the rebroadcast delay, or failed TX_REJECTED when it can
   * never land. A relayed step's transaction is the relayers' (they resend and fee-bump it; its hash
   * may change), and fails the step once they say it never will carry it. A covered transaction not
   * broadcast yet waits for its gas drop (see broadcastAfterGasDrop).
   */
  private async check(row: SigningRequestEntity, manager: EntityManager): Promise<void> {
    const lookup = this.chains.signing(row.chain);
    if (!lookup.ok) {
      row.nextCheckAtMs = this.clock.nowMs() + this.policy.pollMs * 10;
      await saveSigningRequest(manager, row);
      return;
    }
    const client = lookup.client;
    try {
      // Awaited here: an unreachable node or ledger is retried like any other check.
      if (row.gasDropId && row.broadcastAt === null)
        return await this.broadcastAfterGasDrop(row, client, manager);
      const relayed = carriedByRelayer(row);
      const sponsored = relayed ? await this.followRelayer(row) : null;
      const end = sponsored ? relayEndOf(sponsored) : null;
      // Dropped or cancelled: another transaction took its nonce, it can never be mined. Lost: the
      // chain says last (below), since a reorg can mine it again.
      if (end && sponsored?.state !== 'lost') return this.fail(row, manager, end.code, end.reason);
      const progress = await client.progress(row.txHash!, this.policy.confirmationsRequired);
      switch (progress.kind) {
        case 'in-pool':
          // Lost included: back in the pool after a reorg, it may be mined again.
          row.nextCheckAtMs = this.clock.nowMs() + this.policy.pollMs;
          break;
        case 'unknown':
          row.nextCheckAtMs = this.clock.nowMs() + this.policy.pollMs;
          if (end) return this.fail(row, manager, end.code, end.reason);
          if (row.gasDropId && (await this.failWhenGasDropEnded(row, manager))) return;
          // The relayers resend (and fee-bump) their own transactions; only look again.
          if (!relayed && (await this.whenUnknown(row, client, manager))) return;
          break;
        case 'failed':
          row.blockNumber = progress.blockNumber;
          row.confirmations = progress.confirmations;
          return this.fail(row, manager, StepFailureCodes.reverted, progress.reason);
        case 'included':
        case 'confirmed':
          if (end) {
            // The chain has it in a block: it carried the step whatever the ledger recorded.
            this.logger.warn({
              msg: 'relayer transaction recorded as lost is in a block; the step follows the chain',
              swapId: row.swapId,
              stepIndex: row.stepIndex,
              txHash: row.txHash,
              blockNumber: progress.blockNumber,
            });
          }
          return this.whenIncluded(row, progress, manager);
      }
    } catch (error) {
      this.logger.warn({
        msg: 'confirmation check failed; will retry',
        txHash: row.txHash,
        unreachable: client.isUnreachable(error),
        error: shortMessageOf(error),
      });
      row.nextCheckAtMs = this.clock.nowMs() + this.policy.pollMs * 5;
    }
    await saveSigningRequest(manager, row);
  }

  /**
   * The relayers' transaction of a typed-data step: the step follows its mined hash (a fee bump
   * replaces it). Its state tells whether it can still carry the step (relayEndOf). A step already
   * confirmed is never looked at again: a relayer transaction lost after that leaves it confirmed
   * (the swap moved on); the relayers log the loss.
   */
  private async followRelayer(row: SigningRequestEntity): Promise<SponsoredTransactionStatus | null> {
    if (!row.sponsoredTxId || !this.sponsor) return null;
    const relayed = await this.sponsor.status(row.sponsoredTxId);
    if (relayed.minedHash && relayed.minedHash !== row.txHash) row.txHash = relayed.minedHash;
    return relayed;
  }

  /**
   * A covered transaction accepted before its gas drop was mined: sent as soon as the drop is
   * (looked at every pass), failed with the drop's code when the drop ends without delivering its
   * gas (dropped, cancelled, lost, reverted). A node that cannot be reached: sent on a later pass;
   * one that refuses it: TX_REJECTED.
   */
  private async broadcastAfterGasDrop(
    row: SigningRequestEntity,
    client: SigningChainClient,
    manager: EntityManager,
  ): Promise<void> {
    const drop = this.sponsor ? await this.sponsor.status(row.gasDropId!) : null;
    if (drop?.state === 'pending') {
      row.nextCheckAtMs = this.clock.nowMs() + this.policy.pollMs;
      return saveSigningRequest(manager, row);
    }
    const end = drop ? gasDropEndOf(drop, row.from) : null;
    if (end) return this.fail(row, manager, end.code, end.reason);
    const outcome = await client.broadcast(row.rawTx!, row.txHash!);
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
        row.nextCheckAtMs = this.clock.nowMs() + this.policy.pollMs;
        break;
      case 'unreachable':
        this.logger.warn({
          msg: 'broadcast after the gas drop failed, RPC unreachable; will retry',
          txHash: row.txHash,
          error: outcome.message,
        });
        row.nextCheckAtMs = this.clock.nowMs() + this.policy.pollMs * 5;
        break;
      case 'rejected':
        return this.fail(row, manager, StepFailureCodes.rejected, outcome.message);
    }
    await saveSigningRequest(manager, row);
  }

  /**
   * A covered transaction the node does not know: when its gas drop ended without delivering (lost
   * to a reorg or a chain reset after the broadcast), it can never be paid for; true when the step
   * was failed with the drop's code.
   */
  private async failWhenGasDropEnded(row: SigningRequestEntity, manager: EntityManager): Promise<boolean> {
    if (!this.sponsor) return false;
    const end = gasDropEndOf(await this.sponsor.status(row.gasDropId!), row.from);
    if (!end) return false;
    await this.fail(row, manager, end.code, end.reason);
    return true;
  }

  /**
   * Unknown to the node past the rebroadcast delay (crash before broadcast, node restarted, pool
   * evicted it): sent again; true when it can never land (the row is failed TX_REJECTED, or
   * FEE_PAYER_UNAVAILABLE when the service's fee payer could not pay it).
   */
  private async whenUnknown(
    row: SigningRequestEntity,
    client: SigningChainClient,
    manager: EntityManager,
  ): Promise<boolean> {
    const sentAt = row.broadcastAt?.getTime() ?? 0;
    if (this.clock.nowMs() - sentAt < this.policy.rebroadcastAfterMs) return false;
    const outcome = await client.resend(row.rawTx!, row.txHash!);
    switch (outcome.kind) {
      case 'expired': {
        // A sponsored Solana transaction whose fee payer ran dry never lands either: the service's
        // problem, said as such.
        const shortfall = feePayerSignsLater(row) ? await feePayerShortfallOf(client, row) : null;
        if (shortfall) {
          await this.fail(
            row,
            manager,
            StepFailureCodes.feePayerUnavailable,
            `${shortfall.reason}; ${outcome.reason}`,
          );
        } else {
          await this.fail(row, manager, StepFailureCodes.rejected, outcome.reason);
        }
        return true;
      }
      case 'landed':
        return false;
      case 'sent':
        this.logger.log({ msg: 'transaction sent again', txHash: row.txHash });
        break;
      case 'send-failed':
        this.logger.warn({
          msg: 'sending the transaction again failed',
          txHash: row.txHash,
          error: outcome.message,
        });
        break;
    }
    row.broadcastAt = new Date(this.clock.nowMs());
    return false;
  }

  private async whenIncluded(
    row: SigningRequestEntity,
    progress: Extract<TransactionProgress, { kind: 'included' | 'confirmed' }>,
    manager: EntityManager,
  ): Promise<void> {
    const newlyIncluded = row.blockNumber !== progress.blockNumber;
    row.blockNumber = progress.blockNumber;
    row.confirmations = progress.confirmations;
    // First sight of the transaction in this block (or in a new one after a reorg): the swap is
    // `confirming` from here, even when the same pass finds enough confirmations.
    if (newlyIncluded)
      await this.events.included(manager, row, {
        confirmations: progress.confirmations,
        required: progress.required,
      });
    if (progress.kind === 'included') {
      row.nextCheckAtMs = this.clock.nowMs() + this.policy.pollMs;
      await saveSigningRequest(manager, row);
      return;
    }
    row.status = 'confirmed';
    row.confirmedAtMs = progress.blockTimeMs ?? this.clock.nowMs();
    row.nextCheckAtMs = null;
    await saveSigningRequest(manager, row);
    await this.events.confirmed(manager, row);
    this.logger.log({
      msg: 'transaction confirmed',
      swapId: row.swapId,
      stepIndex: row.stepIndex,
      txHash: row.txHash,
      blockNumber: row.blockNumber,
      confirmations: row.confirmations,
    });
  }

  private async fail(
    row: SigningRequestEntity,
    manager: EntityManager,
    code: string,
    reason: string,
  ): Promise<void> {
    await failStep(manager, this.events, row, code, reason);
    this.logger.warn({ msg: 'transaction failed', swapId: row.swapId, txHash: row.txHash, code, reason });
  }
}
