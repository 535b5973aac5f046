import { saveSigningRequest, SigningRequestsRepository } from './signing-requests.repository';
import { failStep } from './step-failure';
import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { SignerChains } from '../chains/signer-chains';
import { SignerSurfaceConfig } from '../config/signer-surface.config';
import { Clock } from '@swapgw/runtime';
import { isChainUnreachable, shortMessageOf } from '@swapgw/chains';
import { PeriodicTask } from './periodic-task';
import { SigningEventsOutbox, StepFailureCodes } from './signing-events.outbox';
import { SigningPayloadIssuer } from './signing-payload.issuer';
import { SigningRequestEntity } from './signing-request.entity';
import { readWaitForBalance } from './wait-for-balance';

/** How the waiting requests are polled, from the validated config. */
@Injectable()
export class WaitingPollPolicy {
  /** WAITING_POLL_MS: interval of the loop, and of the checks of one waiting request. */
  readonly pollMs: number;
  /** Requests claimed per pass. */
  readonly batchSize = 20;

  constructor(config: SignerSurfaceConfig) {
    this.pollMs = config.WAITING_POLL_MS;
  }
}

/**
 * Re-checks requests waiting for a balance (waitFor) and issues their payload once it is there.
 * Rows are claimed with FOR UPDATE SKIP LOCKED: safe with several instances and across restarts.
 */
@Injectable()
export class WaitingRequestPoller extends PeriodicTask {
  constructor(
    private readonly dataSource: DataSource,
    private readonly chains: SignerChains,
    private readonly issuer: SigningPayloadIssuer,
    private readonly events: SigningEventsOutbox,
    private readonly requests: SigningRequestsRepository,
    private readonly policy: WaitingPollPolicy,
    private readonly clock: Clock,
  ) {
    super('WaitingRequestPoller', policy.pollMs);
  }

  async runOnce(): Promise<number> {
    return this.dataSource.transaction(async (manager) => {
      const due = await this.requests.claimDueWaiting(manager, this.clock.nowMs(), this.policy.batchSize);
      for (const row of due) await this.check(row, manager);
      return due.length;
    });
  }

  private async check(row: SigningRequestEntity, manager: EntityManager): Promise<void> {
    const { waitFor } = row.spec;
    if (!waitFor) {
      await this.issuer.markUnavailable(row, manager, 'waiting request without a condition');
      return;
    }
    try {
      const wait = await readWaitForBalance(this.chains, row);
      if (!wait.ok) {
        await this.issuer.markUnavailable(row, manager, wait.reason);
        return;
      }
      if (wait.balance >= wait.minBalance) {
        await this.issuer.issue(row, manager);
        return;
      }
    } catch (error) {
      this.logger.warn({
        msg: 'balance check failed; will retry',
        swapId: row.swapId,
        unreachable: isChainUnreachable(error),
        error: shortMessageOf(error),
      });
    }
    if (row.waitDeadlineMs !== null && this.clock.nowMs() >= row.waitDeadlineMs) {
      const reason = `balance of ${waitFor.minBalance} never arrived at ${waitFor.holder}`;
      await failStep(manager, this.events, row, StepFailureCodes.waitTimeout, reason);
      return;
    }
    row.nextCheckAtMs = this.clock.nowMs() + this.policy.pollMs;
    await saveSigningRequest(manager, row);
  }
}
