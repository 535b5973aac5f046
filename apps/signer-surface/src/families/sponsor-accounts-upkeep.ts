import { BitcoinFeeWallets } from './bitcoin';
import { RelayerPool, Relayers } from './evm';
import { RelayingMetrics } from '../sponsorship/relaying-metrics';
import { SolanaFeePayers } from './solana';
import { TrackedRows } from '../sponsorship/tracking/tracked-rows';

/**
 * The tracker's work on its own clocks, besides the pending rows: the relayer, fee payer and fee
 * wallet balances read every `balanceRefreshMs` (the balance gauge, and which accounts senders
 * skip), and every relayer's nonce ledger reconciled with its chain every `reconcileMs` (first on
 * start), with the oldest-pending gauge.
 */
export class SponsorAccountsUpkeep {
  private balancesReadAtMs = Number.NEGATIVE_INFINITY;
  private reconciledAtMs = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly rows: TrackedRows,
    private readonly pool: RelayerPool,
    private readonly relayers: Relayers,
    private readonly feePayers?: SolanaFeePayers,
    private readonly feeWallets?: BitcoinFeeWallets,
  ) {}

  async runIfDue(): Promise<void> {
    const { clock, policy } = this.rows;
    if (clock.nowMs() - this.balancesReadAtMs >= policy.balanceRefreshMs) {
      this.balancesReadAtMs = clock.nowMs();
      await Promise.all([
        this.pool.refreshBalances(),
        this.feePayers?.refreshBalances(),
        this.feeWallets?.refreshBalances(),
      ]);
    }
    if (clock.nowMs() - this.reconciledAtMs >= policy.reconcileMs) {
      this.reconciledAtMs = clock.nowMs();
      await this.relayers.reconcileAll();
      await this.reportOldestPending();
    }
  }

  /**
   * The age of the oldest pending transaction and the number pending, per chain with relayers or
   * fee payers (0 when none).
   */
  private async reportOldestPending(): Promise<void> {
    const pending = new Map((await this.rows.repository.pendingByChain()).map((r) => [r.chain, r]));
    for (const chain of new Set([...this.pool.chainIds(), ...pending.keys()])) {
      RelayingMetrics.pending(chain, pending.get(chain)?.seconds ?? 0, pending.get(chain)?.count ?? 0);
    }
  }
}
