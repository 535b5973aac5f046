import { saveSigningRequest, SigningRequestsRepository } from './signing-requests.repository';
import { failStep } from './step-failure';
import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { SignerChains } from '../chains/signer-chains';
import { SignerSurfaceConfig } from '../config/signer-surface.config';
import { Clock } from '@swapgw/runtime';
import { shortMessageOf } from '@swapgw/chains';
import { SigningEventsOutbox, StepFailureCodes } from './signing-events.outbox';
import { requiredColumn } from './signing-request-columns';
import { SigningRequestEntity } from './signing-request.entity';
import { PeriodicTask } from './periodic-task';
import { TransactionProgress } from '@swapgw/chains/families';
import { PayloadKindRegistry, type PayloadKindHandler, type TrackedStep } from './payload-kinds';

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
 * FOR UPDATE SKIP LOCKED, so several instances share the work and a restart simply resumes it. What
 * only a payload kind knows (a gas drop to wait for, a relayer's transaction to follow, a fee payer
 * that ran dry) is its handler's tracking hooks (PayloadKindHandler); the tracker never asks the kind.
 */
@Injectable()
export class ConfirmationTracker extends PeriodicTask {
  constructor(
    private readonly dataSource: DataSource,
    private readonly chains: SignerChains,
    private readonly events: SigningEventsOutbox,
    private readonly requests: SigningRequestsRepository,
    private readonly policy: ConfirmationPolicy,
    private readonly kinds: PayloadKindRegistry,
    private readonly clock: Clock,
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
   * never land. Before the chain is asked, the kind's handler may wait (a covered transaction's gas
   * drop), fail the step (a relayer's transaction that will never carry it) or follow a new hash (a
   * fee bump); a kind whose transaction is a sponsor's to resend is never sent again here.
   */
  private async check(row: SigningRequestEntity, manager: EntityManager): Promise<void> {
    const lookup = this.chains.signing(row.chain);
    if (!lookup.ok) {
      row.nextCheckAtMs = this.clock.nowMs() + this.policy.pollMs * 10;
      await saveSigningRequest(manager, row);
      return;
    }
    const client = lookup.client;
    const step: TrackedStep = { row, client };
    try {
      const handler = this.kinds.forKind(requiredColumn(row, 'payload').type);
      // Awaited here: an unreachable node or ledger is retried like any other check.
      const decision = handler.track ? await handler.track(step) : null;
      if (decision?.kind === 'fail')
        return await this.fail(row, manager, decision.failure.code, decision.failure.reason);
      if (decision?.kind === 'look-again') {
        row.nextCheckAtMs = this.clock.nowMs() + this.policy.pollMs * decision.polls;
        return await saveSigningRequest(manager, row);
      }
      // A sponsor's transaction given up as lost: the chain says last (below), since a reorg can mine it again.
      const end = decision?.end ?? null;
      const progress = await client.progress(
        requiredColumn(row, 'txHash'),
        this.policy.confirmationsRequired,
      );
      switch (progress.kind) {
        case 'in-pool':
          // Lost included: back in the pool after a reorg, it may be mined again.
          row.nextCheckAtMs = this.clock.nowMs() + this.policy.pollMs;
          break;
        case 'unknown': {
          row.nextCheckAtMs = this.clock.nowMs() + this.policy.pollMs;
          if (end) return this.fail(row, manager, end.code, end.reason);
          const ended = handler.endWhenUnknown ? await handler.endWhenUnknown(step) : null;
          if (ended) return await this.fail(row, manager, ended.code, ended.reason);
          if (!handler.resentBySponsor && (await this.whenUnknown(step, handler, manager))) return;
          break;
        }
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
   * Unknown to the node past the rebroadcast delay (crash before broadcast, node restarted, pool
   * evicted it): sent again; true when it can never land (the row is failed TX_REJECTED, or with the
   * failure the kind's handler gives when the cause is the service's: failureWhenExpired).
   */
  private async whenUnknown(
    step: TrackedStep,
    handler: PayloadKindHandler,
    manager: EntityManager,
  ): Promise<boolean> {
    const { row, client } = step;
    const sentAt = row.broadcastAt?.getTime() ?? 0;
    if (this.clock.nowMs() - sentAt < this.policy.rebroadcastAfterMs) return false;
    const outcome = await client.resend(requiredColumn(row, 'rawTx'), requiredColumn(row, 'txHash'));
    switch (outcome.kind) {
      case 'expired': {
        const failure = handler.failureWhenExpired
          ? await handler.failureWhenExpired(step, outcome.reason)
          : null;
        await this.fail(
          row,
          manager,
          failure?.code ?? StepFailureCodes.rejected,
          failure?.reason ?? outcome.reason,
        );
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
