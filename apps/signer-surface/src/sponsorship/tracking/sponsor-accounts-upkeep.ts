import { RelayingMetrics } from '../relaying-metrics';
import type { SponsorTracking } from './sponsor-tracking';
import { TrackedRows } from './tracked-rows';

/**
 * The tracker's work on its own clocks, besides the pending rows: every family's sponsor accounts'
 * balances read every `balanceRefreshMs` (the balance gauge, and which accounts senders skip), and
 * their own ledgers reconciled with their chains every `reconcileMs` (first on start: the EVM
 * relayers' nonce ledgers), with the oldest-pending gauge.
 */
export class SponsorAccountsUpkeep {
  private balancesReadAtMs = Number.NEGATIVE_INFINITY;
  private reconciledAtMs = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly rows: TrackedRows,
    private readonly trackings: readonly SponsorTracking[],
  ) {}

  async runIfDue(): Promise<void> {
    const { clock, policy } = this.rows;
    if (clock.nowMs() - this.balancesReadAtMs >= policy.balanceRefreshMs) {
      this.balancesReadAtMs = clock.nowMs();
      await Promise.all(this.trackings.map((tracking) => tracking.refreshBalances()));
    }
    if (clock.nowMs() - this.reconciledAtMs >= policy.reconcileMs) {
      this.reconciledAtMs = clock.nowMs();
      for (const tracking of this.trackings) await tracking.reconcile?.();
      await this.reportOldestPending();
    }
  }

  /**
   * The age of the oldest pending transaction and the number pending, per chain with pending rows or
   * gauged by a family (0 when none).
   */
  private async reportOldestPending(): Promise<void> {
    const pending = new Map((await this.rows.repository.pendingByChain()).map((r) => [r.chain, r]));
    const gauged = this.trackings.flatMap((tracking) => tracking.gaugedChains?.() ?? []);
    for (const chain of new Set([...gauged, ...pending.keys()])) {
      RelayingMetrics.pending(chain, pending.get(chain)?.seconds ?? 0, pending.get(chain)?.count ?? 0);
    }
  }
}
