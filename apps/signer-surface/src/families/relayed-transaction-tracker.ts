import { Injectable } from '@nestjs/common';
import { shortMessageOf } from '@swapgw/chains';
import { Clock, PeriodicWork } from '@swapgw/runtime';
import { SignerChains } from '../chains/signer-chains';
import { BitcoinFeeBumps, BitcoinFeeWallets, BitcoinSettlement } from './bitcoin';
import { EvmRelayedTracking, RelayerPool, Relayers } from './evm';
import { SolanaFeePayers, SolanaSettlement } from './solana';
import { SponsoredTransactionEntity } from '../sponsorship/sponsored-transaction.entity';
import { SponsoredTransactionsRepository } from '../sponsorship/sponsored-transactions.repository';
import { RelayedTrackingPolicy } from '../sponsorship/tracking/relayed-tracking-policy';
import { SponsorAccountsUpkeep } from './sponsor-accounts-upkeep';
import { TrackedRows } from '../sponsorship/tracking/tracked-rows';

export { RelayedTrackingPolicy } from '../sponsorship/tracking/relayed-tracking-policy';

/**
 * Follows the sponsorship ledger's pending transactions until they are mined or end. Each pass
 * claims due rows with FOR UPDATE SKIP LOCKED and a lease (next_check_at_ms), so several instances
 * share the work, and hands each to the part that knows its family (in its family folder): a relayer's EVM
 * transaction is followed, re-issued or replaced (EvmRelayedTracking); a fee payer's co-signed
 * Solana transaction is settled from the node's record of it (SolanaSettlement); a fee wallet's
 * Bitcoin transaction or CPFP child is settled, or bumped when stuck (BitcoinSettlement). On its own
 * clocks it also refreshes the sponsors' balances and reconciles the relayers' nonce ledgers
 * (SponsorAccountsUpkeep).
 */
@Injectable()
export class RelayedTransactionTracker {
  private readonly work: PeriodicWork;
  private readonly rows: TrackedRows;
  private readonly upkeep: SponsorAccountsUpkeep;
  private readonly evm: EvmRelayedTracking;
  private readonly solana: SolanaSettlement;
  private readonly bitcoin: BitcoinSettlement;

  constructor(
    ledger: SponsoredTransactionsRepository,
    chains: SignerChains,
    pool: RelayerPool,
    relayers: Relayers,
    private readonly policy: RelayedTrackingPolicy,
    clock: Clock,
    feePayers?: SolanaFeePayers,
    feeWallets?: BitcoinFeeWallets,
    /** Absent: stuck Bitcoin transactions are only followed, never bumped. */
    feeBumps?: BitcoinFeeBumps,
  ) {
    this.rows = new TrackedRows(ledger, policy, clock);
    this.upkeep = new SponsorAccountsUpkeep(this.rows, pool, relayers, feePayers, feeWallets);
    this.evm = new EvmRelayedTracking(chains, pool, relayers, this.rows);
    this.solana = new SolanaSettlement(chains, this.rows);
    this.bitcoin = new BitcoinSettlement(this.rows, feeWallets, feeBumps);
    this.work = new PeriodicWork({
      name: RelayedTransactionTracker.name,
      intervalMs: policy.pollMs,
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
    switch (row.purpose) {
      case 'solana-transaction':
        return this.solana.check(row);
      case 'bitcoin-transaction':
        return this.bitcoin.checkTransaction(row);
      case 'bitcoin-fee-bump':
        return this.bitcoin.checkFeeBump(row);
      default:
        return this.evm.check(row);
    }
  }
}
