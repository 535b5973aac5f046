import { Injectable } from '@nestjs/common';
import { BitcoinFeeBumps, conflictingSpendOf } from './bitcoin-fee-bump';
import { BitcoinFeeWallets } from './bitcoin-fee-wallets';
import { SponsoredTransactionEntity } from '../../sponsorship/sponsored-transaction.entity';
import type { SponsorTracking } from '../../sponsorship/tracking/sponsor-tracking';
import { failureOf, TrackedRows } from '../../sponsorship/tracking/tracked-rows';

/**
 * The Bitcoin rows of the ledger: users' transactions a fee wallet's input pays for, and their CPFP
 * children. On the tracker's clock it also reads the fee wallets' balances.
 */
@Injectable()
export class BitcoinSettlement implements SponsorTracking {
  readonly purposes = ['bitcoin-transaction', 'bitcoin-fee-bump'] as const;

  constructor(
    private readonly rows: TrackedRows,
    private readonly feeWallets?: BitcoinFeeWallets,
    /** Absent: stuck Bitcoin transactions are only followed, never bumped. */
    private readonly feeBumps?: BitcoinFeeBumps,
  ) {}

  check(row: SponsoredTransactionEntity): Promise<void> {
    return row.purpose === 'bitcoin-fee-bump' ? this.checkFeeBump(row) : this.checkTransaction(row);
  }

  async refreshBalances(): Promise<void> {
    await this.feeWallets?.refreshBalances();
  }

  /**
   * A user's Bitcoin transaction whose fee input a service fee wallet signed, looked up through the
   * family's BitcoinChainClient (`progress`, one confirmation). In a block: confirmed, at its fee (the
   * row's gasLimit: Bitcoin has no failed-but-mined transaction). In the mempool past
   * BITCOIN_STUCK_AFTER_MS: fee-bumped by a child of its fee wallet's change (BitcoinFeeBumps). Unknown
   * to the node while another transaction spends one of its inputs (the user spent it elsewhere or
   * replaced it): it can never be mined, so it is `dropped` (RELAY_DROPPED, nothing paid) at once and
   * its fee input is free again. Unknown once the step's payload expired (the fee input's hold, which
   * lasts until then): it was never broadcast or the mempool dropped it, so it is `lost` (RELAY_LOST,
   * nothing paid) and the fee input is free again. The step's transaction itself is never sent from
   * here: the signing flow broadcasts it (and resends it when the node lost it).
   */
  async checkTransaction(row: SponsoredTransactionEntity): Promise<void> {
    const { clock, policy } = this.rows;
    const progress = await this.feeWallets?.progress(row.chain, row.txHash);
    if (!progress) return this.rows.later(row.id, policy.pollMs * 10);
    if (progress.kind === 'confirmed') {
      return this.rows.settle(row, 'confirmed', {
        gasUsed: row.gasLimit,
        effectiveGasPrice: 1n,
        costWei: row.gasLimit,
        blockNumber: progress.blockNumber,
        minedAtMs: progress.blockTimeMs ?? clock.nowMs(),
      });
    }
    if (progress.kind === 'in-pool' && this.feeBumps?.isStuck(row)) await this.feeBumps.bumpIfStuck(row);
    if (progress.kind === 'unknown') {
      const client = this.feeWallets?.clientOf(row.chain);
      const conflict = client ? await conflictingSpendOf(client, row.data, row.txHash) : null;
      if (conflict) {
        await this.rows.settle(row, 'dropped', {
          costWei: 0n,
          ...failureOf(
            'RELAY_DROPPED',
            `input ${conflict.outpoint} of Bitcoin transaction ${row.txHash} was spent by transaction ${conflict.spender}: it can never be mined`,
          ),
        });
        await this.feeWallets?.releaseSpentBy(row.chain, row.txHash);
        return;
      }
    }
    const heldUntilMs = (await this.feeWallets?.spentHoldUntil(row.chain, row.txHash)) ?? row.lastSentAtMs;
    if (progress.kind !== 'unknown' || clock.nowMs() < heldUntilMs) return this.rows.later(row.id);
    await this.rows.settle(row, 'lost', {
      costWei: 0n,
      ...failureOf(
        'RELAY_LOST',
        `the chain does not know Bitcoin transaction ${row.txHash} after the step's payload expired`,
      ),
    });
    await this.feeWallets?.releaseSpentBy(row.chain, row.txHash);
  }

  /** A fee wallet's CPFP child of a stuck Bitcoin transaction (BitcoinFeeBumps.follow). */
  async checkFeeBump(row: SponsoredTransactionEntity): Promise<void> {
    const settlement = this.feeBumps ? await this.feeBumps.follow(row) : null;
    if (settlement) return this.rows.settle(row, settlement.status, settlement.outcome);
    await this.rows.later(row.id);
  }
}
