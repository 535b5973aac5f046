import { Inject, Injectable } from '@nestjs/common';
import { shortMessageOf } from '@swapgw/chains';
import { PeriodicWork } from '@swapgw/runtime';
import type { LedgerPurpose, SponsoredTransactionEntity } from '../sponsored-transaction.entity';
import { RelayedTrackingPolicy } from './relayed-tracking-policy';
import { SponsorAccountsUpkeep } from './sponsor-accounts-upkeep';
import { SPONSOR_TRACKINGS, type SponsorTracking } from './sponsor-tracking';
import { TrackedRows } from './tracked-rows';

export { RelayedTrackingPolicy } from './relayed-tracking-policy';

/**
 * Follows the sponsorship ledger's pending transactions until they are mined or end. Each pass
 * claims due rows with FOR UPDATE SKIP LOCKED and a lease (next_check_at_ms), so several instances
 * share the work, and hands each to the SponsorTracking its family registered for the row's purpose
 * (a relayer's EVM transaction is followed, re-issued or replaced; a fee payer's co-signed Solana
 * transaction is settled from the node's record of it; a fee wallet's Bitcoin transaction or CPFP
 * child is settled, or bumped when stuck). On its own clocks it also refreshes the sponsors'
 * balances and reconciles their ledgers (SponsorAccountsUpkeep).
 */
@Injectable()
export class RelayedTransactionTracker {
  private readonly work: PeriodicWork;
  private readonly upkeep: SponsorAccountsUpkeep;
  private readonly byPurpose = new Map<LedgerPurpose, SponsorTracking>();
  private readonly policy: RelayedTrackingPolicy;

  constructor(
    private readonly rows: TrackedRows,
    @Inject(SPONSOR_TRACKINGS) trackings: readonly SponsorTracking[],
  ) {
    for (const tracking of trackings) {
      for (const purpose of tracking.purposes) {
        if (this.byPurpose.has(purpose)) throw new Error(`Two families track ledger purpose ${purpose}`);
        this.byPurpose.set(purpose, tracking);
      }
    }
    this.policy = rows.policy;
    this.upkeep = new SponsorAccountsUpkeep(rows, trackings);
    this.work = new PeriodicWork({
      name: RelayedTransactionTracker.name,
      intervalMs: this.policy.pollMs,
      run: () => this.runOnce(),
    });
  }

  start(): void {
    this.work.start(0);
  }

  stop(): Promise<void> {
    return this.work.stop();
  }

  /** One pass; answers how many pending transactions it looked at. */
  async runOnce(): Promise<number> {
    await this.upkeep.runIfDue();
    const now = this.rows.clock.nowMs();
    const due = await this.rows.repository.claimDue(now, now + this.policy.leaseMs, this.policy.batchSize);
    for (const row of due) {
      try {
        await this.check(row);
      } catch (error) {
        this.rows.logger.warn({
          msg: 'relayed transaction check failed; will retry',
          id: row.id,
          chain: row.chain,
          error: shortMessageOf(error),
        });
        await this.rows.later(row.id, this.policy.pollMs * 5);
      }
    }
    return due.length;
  }

  private check(row: SponsoredTransactionEntity): Promise<void> {
    const tracking = this.byPurpose.get(row.purpose);
    if (!tracking) throw new Error(`no family tracks ledger purpose ${row.purpose}`);
    return tracking.check(row);
  }
}
