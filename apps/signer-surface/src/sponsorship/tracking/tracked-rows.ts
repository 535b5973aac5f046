import { Injectable, Logger } from '@nestjs/common';
import { Clock } from '@swapgw/runtime';
import type { SponsoredFailure } from '../gas-sponsor';
import { RelayingMetrics } from '../relaying-metrics';
import { SponsoredTransactionEntity, SponsoredTransactionStatus } from '../sponsored-transaction.entity';
import { RelayedTrackingPolicy } from './relayed-tracking-policy';
import { SponsoredTransactionsRepository } from '../sponsored-transactions.repository';

/**
 * What every part of the tracker does with a pending row it looked at: look again later, change
 * it, or settle it (final status, counted in the metrics by the instance whose update took).
 */
@Injectable()
export class TrackedRows {
  /** The tracker's logger name, whichever part logs. */
  readonly logger = new Logger('RelayedTransactionTracker');

  constructor(
    readonly repository: SponsoredTransactionsRepository,
    readonly policy: RelayedTrackingPolicy,
    readonly clock: Clock,
  ) {}

  /** Looked at again `delayMs` from now (one poll unless said). */
  later(id: string, delayMs = this.policy.pollMs): Promise<void> {
    return this.repository.update(id, { nextCheckAtMs: this.clock.nowMs() + delayMs });
  }

  update(id: string, changes: Partial<SponsoredTransactionEntity>): Promise<void> {
    return this.repository.update(id, changes);
  }

  /** Final state of a pending row; counted in the metrics by the instance whose update took. */
  async settle(
    row: SponsoredTransactionEntity,
    status: Exclude<SponsoredTransactionStatus, 'pending'>,
    outcome: Partial<SponsoredTransactionEntity> & { costWei: bigint },
  ): Promise<void> {
    const settled = await this.repository.settle(row.id, { ...outcome, status, nextCheckAtMs: null });
    if (!settled) return;
    RelayingMetrics.settled(row.chain, row.purpose, status, row.owner, outcome.costWei);
    const log = status === 'confirmed' ? 'log' : 'warn';
    this.logger[log]({
      msg: `sponsored transaction ${status}`,
      id: row.id,
      chain: row.chain,
      purpose: row.purpose,
      swapId: row.swapId,
      txHash: outcome.txHash ?? row.txHash,
      costWei: outcome.costWei.toString(),
    });
  }
}

export const failureOf = (code: SponsoredFailure['code'], reason: string) => ({
  failureCode: code,
  failureReason: reason,
});
