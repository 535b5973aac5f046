import { Clock } from '@swapgw/runtime';
import { Logger } from '@nestjs/common';
import { shortMessageOf } from '@swapgw/chains';
import { JsonRpcProvider, Wallet } from 'ethers';
import type { EntityManager } from 'typeorm';
import { broadcastFailureOf } from './broadcast-errors';
import {
  attemptTransaction,
  currentAttempt,
  evmNonceOf,
  receiptOfAny,
} from '../../sponsorship/relayed-attempts';
import { LockedAccount, RelayerAccountsRepository } from '../../sponsorship/relayer-accounts.repository';
import { RelayingMetrics } from '../../sponsorship/relaying-metrics';
import { signTransaction } from './signed-transaction';
import { SponsoredTransactionEntity } from '../../sponsorship/sponsored-transaction.entity';
import { SponsoredTransactionsRepository } from '../../sponsorship/sponsored-transactions.repository';

/** One relayer of one chain, as the reconciler works on it (its account row locked by the caller). */
export interface RelayerUnderLock {
  chain: string;
  provider: JsonRpcProvider;
  evmChainId: bigint;
  wallet: Wallet;
  account: LockedAccount;
}

/** Sends a zero-value self-transfer at `nonce` and records it (purpose nonce-fill), in `manager`'s transaction. */
export type SendNonceFill = (
  manager: EntityManager,
  relayer: RelayerUnderLock,
  nonce: number,
) => Promise<void>;

export interface ReconcilePolicy {
  /** Mined rows in the last this many blocks have their receipts read again (a reorg takes blocks back). */
  reorgDepthBlocks: number;
  /**
   * A mined row the chain no longer has, whose nonce is free again, is followed again (sent again
   * as the same transaction) when it was first sent within this long; an older one is `lost`.
   */
  resendLostWithinMs: number;
  /** The most nonce fills one reconciliation sends for one relayer (the rest on later passes). */
  maxFillsPerPass: number;
}

export const DEFAULT_RECONCILE_POLICY: ReconcilePolicy = {
  reorgDepthBlocks: 64,
  resendLostWithinMs: 3_600_000,
  maxFillsPerPass: 64,
};

/**
 * Makes one relayer's nonce ledger follow its chain, under the account's lock:
 * 1. rows recorded as mined that the chain no longer has (their nonce unused, or their receipt
 *    gone within reorg depth): sent again as the same transaction when recent and their nonce is
 *    free (`pending` again), else `lost` (RELAY_LOST, nothing counted as paid);
 * 2. nonces missing under a pending row (a chain reset, a transaction the node dropped whose row is
 *    gone, a crash between broadcast and commit): filled with zero-value self-transfers;
 * 3. pending rows the node may not hold (at or above its pending count): sent again, the same
 *    signed transaction, so the node has every one of them;
 * 4. the account's next nonce: past every pending row and at least the chain's pending count, so
 *    it moves down after a chain reset and up after another sender used the key.
 * Answers the next nonce.
 */
export class NonceReconciler {
  private readonly logger = new Logger(NonceReconciler.name);

  constructor(
    private readonly accounts: RelayerAccountsRepository,
    private readonly transactions: SponsoredTransactionsRepository,
    private readonly sendFill: SendNonceFill,
    private readonly policy: ReconcilePolicy,
    private readonly clock: Clock,
  ) {}

  async reconcile(manager: EntityManager, relayer: RelayerUnderLock): Promise<number> {
    const { chain, provider, wallet, account } = relayer;
    const address = wallet.address;
    const [minedCount, pendingCount, head] = await Promise.all([
      provider.getTransactionCount(address, 'latest'),
      provider.getTransactionCount(address, 'pending'),
      provider.getBlockNumber(),
    ]);
    const ledgerNext = Number(account.next_nonce);
    RelayingMetrics.nonceDrift(chain, address, ledgerNext - pendingCount);

    await this.verifyMined(manager, relayer, minedCount, head);

    const pending = await this.transactions.pendingFrom(manager, chain, address, minedCount);
    const held = new Set(pending.map((row) => row.nonce));
    const top = pending.length > 0 ? evmNonceOf(pending[pending.length - 1]) : minedCount - 1;
    let fills = 0;
    for (let nonce = minedCount; nonce < top && fills < this.policy.maxFillsPerPass; nonce++) {
      if (held.has(nonce)) continue;
      await this.sendFill(manager, relayer, nonce);
      fills++;
    }
    if (fills > 0) {
      RelayingMetrics.healed(chain, 'filled', fills);
      this.logger.warn({
        msg: 'nonce gap filled',
        chain,
        relayer: address,
        from: minedCount,
        to: top,
        fills,
      });
    }
    for (const row of pending) {
      if (evmNonceOf(row) >= pendingCount) await this.resend(relayer, row);
    }

    const next = Math.max(pendingCount, top + 1);
    if (next !== ledgerNext) {
      await this.accounts.setNextNonce(manager, chain, address, next, false);
      this.logger.warn({
        msg: 'relayer nonce ledger moved to the chain',
        chain,
        relayer: address,
        ledgerNext,
        chainMined: minedCount,
        chainPending: pendingCount,
        next,
      });
    }
    return next;
  }

  /** Sends a pending row's current attempt again, as it was signed (the node may have lost it). */
  async resend(
    relayer: Pick<RelayerUnderLock, 'chain' | 'provider' | 'evmChainId' | 'wallet'>,
    row: SponsoredTransactionEntity,
  ): Promise<'sent' | 'known' | 'refused'> {
    const attempt = currentAttempt(row);
    const tx = await signTransaction(relayer.wallet, attemptTransaction(row, attempt, relayer.evmChainId));
    if (tx.hash !== attempt.hash) {
      throw new Error(`re-signing attempt ${attempt.hash} of ${row.id} gave ${tx.hash}`);
    }
    try {
      await relayer.provider.broadcastTransaction(tx.raw);
      RelayingMetrics.healed(relayer.chain, 'resent');
      this.logger.warn({
        msg: 'sponsored transaction sent again (the node did not hold it)',
        id: row.id,
        chain: relayer.chain,
        nonce: attempt.nonce ?? row.nonce,
        txHash: tx.hash,
      });
      return 'sent';
    } catch (error) {
      if (broadcastFailureOf(error) === 'already-known') return 'known';
      this.logger.warn({
        msg: 'sending again refused',
        id: row.id,
        chain: relayer.chain,
        error: shortMessageOf(error),
      });
      return 'refused';
    }
  }

  private async verifyMined(
    manager: EntityManager,
    relayer: RelayerUnderLock,
    minedCount: number,
    head: number,
  ): Promise<void> {
    const { chain, provider, wallet } = relayer;
    const rows = await this.transactions.minedToVerify(
      manager,
      chain,
      wallet.address,
      minedCount,
      Math.max(0, head - this.policy.reorgDepthBlocks),
    );
    for (const row of rows) {
      const found = await receiptOfAny(provider, row.attempts);
      if (found && found.receipt.blockNumber <= head) continue;
      const nonceFree = evmNonceOf(row) >= minedCount;
      const recent = this.clock.nowMs() - row.createdAt.getTime() <= this.policy.resendLostWithinMs;
      if (nonceFree && recent) {
        if (await this.transactions.repend(manager, row.id, this.clock.nowMs())) {
          RelayingMetrics.healed(chain, 'repended');
          this.logger.warn({
            msg: 'a mined sponsored transaction is gone from the chain; following it again',
            id: row.id,
            chain,
            purpose: row.purpose,
            swapId: row.swapId,
            stepIndex: row.stepIndex,
            nonce: row.nonce,
            txHash: row.txHash,
            blockNumber: row.blockNumber,
          });
        }
        continue;
      }
      const reason = nonceFree
        ? `transaction ${row.txHash} was mined in block ${row.blockNumber}, which the chain no longer has`
        : `transaction ${row.txHash} was mined in block ${row.blockNumber}, then the block was replaced and its nonce ${row.nonce} used by another transaction`;
      if (await this.transactions.markLost(manager, row.id, reason)) {
        RelayingMetrics.healed(chain, 'lost');
        RelayingMetrics.settled(chain, row.purpose, 'lost', row.owner, 0n);
        this.logger.error({
          msg: 'sponsored transaction lost',
          id: row.id,
          chain,
          purpose: row.purpose,
          swapId: row.swapId,
          stepIndex: row.stepIndex,
          reason,
        });
      }
    }
  }
}
