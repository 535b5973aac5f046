import { Injectable } from '@nestjs/common';
import { shortMessageOf } from '@swapgw/chains';
import { JsonRpcProvider, TransactionReceipt, Wallet } from 'ethers';
import { SignerChains } from '../../chains/signer-chains';
import { broadcastFailureOf } from './broadcast-errors';
import { Eip1559Fees, feesAsStrings, nextAttemptUnderCeiling } from './fee-bump';
import { attemptTransaction, currentAttempt, receiptOfAny } from '../../sponsorship/relayed-attempts';
import { RelayerPool } from './relayer-pool';
import { Relayers } from './relayers';
import { RelayingMetrics } from '../../sponsorship/relaying-metrics';
import { signTransaction } from './signed-transaction';
import { RelayAttempt, SponsoredTransactionEntity } from '../../sponsorship/sponsored-transaction.entity';
import type { SponsorTracking } from '../../sponsorship/tracking/sponsor-tracking';
import { failureOf, TrackedRows } from '../../sponsorship/tracking/tracked-rows';

/** A transaction re-issued at a fresh nonce this many times and taken again is dropped. */
const DEFAULT_MAX_REISSUES = 3;

/**
 * A relayer's EVM transaction (a gas drop, a relayed call, a nonce fill), followed until it is
 * mined or ends:
 * - a receipt of any attempt → confirmed or failed (a cancel's: cancelled, RELAY_FEE_CEILING), with
 *   gas used, price, cost, block;
 * - the relayer's mined nonce past it without one: another sender took the nonce → the call is
 *   re-issued at a fresh nonce (Relayers.reissue, up to maxReissues), else dropped (RELAY_DROPPED,
 *   nothing paid); a nonce fill or a row being cancelled is dropped at once;
 * - pending past the stuck delay: unknown to the node → sent again as the same transaction; queued
 *   behind an earlier nonce → left (that one is bumped, or the gap filled); no block mined since it
 *   was sent (or first found stuck) → left (a halted chain is no fee problem); next in line while
 *   blocks pass it by → replaced under its fee ceiling (nextAttemptUnderCeiling): raised, or
 *   cancelled at the ceiling, or held.
 * On the tracker's clocks it also reads the relayers' balances and reconciles their nonce ledgers.
 */
@Injectable()
export class EvmRelayedTracking implements SponsorTracking {
  readonly purposes = ['gas-drop', 'permit', 'intent', 'nonce-fill'] as const;

  constructor(
    private readonly chains: SignerChains,
    private readonly pool: RelayerPool,
    private readonly relayers: Relayers,
    private readonly rows: TrackedRows,
  ) {}

  refreshBalances(): Promise<void> {
    return this.pool.refreshBalances();
  }

  async reconcile(): Promise<void> {
    await this.relayers.reconcileAll();
  }

  /** Every chain with relayers (its oldest-pending gauge reads 0 when nothing is pending). */
  gaugedChains(): string[] {
    return this.pool.chainIds();
  }

  async check(row: SponsoredTransactionEntity): Promise<void> {
    const lookup = this.chains.families.evm(row.chain);
    if (!lookup.ok) {
      await this.rows.update(row.id, {
        nextCheckAtMs: this.rows.clock.nowMs() + this.rows.policy.pollMs * 10,
      });
      return;
    }
    const { provider, evmChainId } = lookup.client;
    // The mined nonce is read before the receipts: had an attempt been mined after the receipts
    // were read, the nonce read first could not be past it, so "past it, no receipt" means taken.
    const minedNonce = await provider.getTransactionCount(row.relayer, 'latest');
    const mined = await receiptOfAny(provider, row.attempts);
    if (mined) return this.recordMined(row, mined.receipt, mined.attempt, provider);
    if (row.nonce !== null && minedNonce > row.nonce) return this.nonceTaken(row);
    if (this.rows.clock.nowMs() - row.lastSentAtMs < this.rows.policy.stuckAfterMs) {
      await this.rows.update(row.id, { nextCheckAtMs: this.rows.clock.nowMs() + this.rows.policy.pollMs });
      return;
    }
    const wallet = this.pool.wallet(row.chain, row.relayer);
    if (!wallet) {
      this.rows.logger.error({
        msg: 'stuck sponsored transaction of a relayer whose key is no longer configured',
        id: row.id,
        chain: row.chain,
        relayer: row.relayer,
      });
      await this.rows.update(row.id, {
        nextCheckAtMs: this.rows.clock.nowMs() + this.rows.policy.stuckAfterMs,
      });
      return;
    }
    if (!(await provider.getTransaction(row.txHash))) {
      // The node lost it (evicted, restarted, an RPC provider that dropped it): the same
      // transaction again, no fee raised, unless the node refuses it as it is (its fee cap under
      // the base fee: a node evicts those), when it is replaced like a stuck one.
      const resent = await this.relayers.resend({ chain: row.chain, provider, evmChainId, wallet }, row);
      if (resent !== 'refused') {
        await this.rows.update(row.id, {
          lastSentAtMs: this.rows.clock.nowMs(),
          nextCheckAtMs: this.rows.clock.nowMs() + this.rows.policy.pollMs,
        });
        return;
      }
    }
    if (row.nonce !== null && row.nonce > minedNonce) {
      // Queued behind an earlier nonce of the relayer: raising its fees would not help.
      await this.rows.update(row.id, { nextCheckAtMs: this.rows.clock.nowMs() + this.rows.policy.pollMs });
      return;
    }
    const head = await provider.getBlockNumber();
    const current = currentAttempt(row);
    if (current.sentAtBlock === undefined || head <= current.sentAtBlock) {
      // No block was mined since it was sent (or first found stuck): the chain is not producing
      // blocks (a halt, mining paused), which higher fees do not cure. Looked at again.
      if (current.sentAtBlock === undefined) await this.rows.repository.noteStuckAtBlock(row, head);
      await this.rows.update(row.id, { nextCheckAtMs: this.rows.clock.nowMs() + this.rows.policy.pollMs });
      return;
    }
    return this.replace(row, provider, evmChainId, wallet, head);
  }

  /**
   * None of the row's attempts mined and its nonce is used: another sender took it. A nonce fill has
   * nothing left to do; a row being cancelled ends as it wanted (its call never ran); any other is
   * re-issued at a fresh nonce, up to maxReissues times, then dropped.
   */
  private async nonceTaken(row: SponsoredTransactionEntity): Promise<void> {
    const nonces = new Set(row.attempts.map((a) => a.nonce ?? row.nonce));
    const cancelling = row.attempts.some((a) => a.cancel === true);
    if (row.purpose === 'nonce-fill' || cancelling) {
      return this.rows.settle(row, 'dropped', {
        costWei: 0n,
        ...(cancelling ? failureOf('RELAY_FEE_CEILING', this.ceilingReason(row)) : {}),
      });
    }
    if (nonces.size > (this.rows.policy.maxReissues ?? DEFAULT_MAX_REISSUES)) {
      return this.rows.settle(row, 'dropped', {
        costWei: 0n,
        ...failureOf(
          'RELAY_DROPPED',
          `nonces ${[...nonces].join(', ')} of relayer ${row.relayer} were each taken by another transaction`,
        ),
      });
    }
    const outcome = await this.relayers.reissue(row, this.rows.policy.feeBumpPercent);
    switch (outcome.kind) {
      case 'reissued':
        RelayingMetrics.healed(row.chain, 'reissued');
        this.rows.logger.warn({
          msg: 'sponsored transaction re-issued: another sender took its nonce',
          id: row.id,
          chain: row.chain,
          previousNonce: row.nonce,
          nonce: outcome.nonce,
          txHash: outcome.txHash,
        });
        return;
      case 'later':
        await this.rows.update(row.id, { nextCheckAtMs: this.rows.clock.nowMs() + this.rows.policy.pollMs });
        return;
      case 'refused':
        return this.rows.settle(row, 'dropped', {
          costWei: 0n,
          ...failureOf(
            'RELAY_DROPPED',
            `its nonce ${row.nonce} was taken and it cannot be sent again: ${outcome.why}`,
          ),
        });
    }
  }

  private async recordMined(
    row: SponsoredTransactionEntity,
    receipt: TransactionReceipt,
    attempt: RelayAttempt,
    provider: JsonRpcProvider,
  ): Promise<void> {
    const block = await provider.getBlock(receipt.blockNumber);
    const succeeded = receipt.status === 1;
    const cancelled = attempt.cancel === true;
    // The value moves only when the call succeeds; the gas is paid either way. (L1 data fees of
    // rollups are not in the receipt's gas price and are not counted.) A cancel moves nothing.
    const costWei = receipt.gasUsed * receipt.gasPrice + (succeeded && !cancelled ? row.value : 0n);
    const status = cancelled ? 'cancelled' : succeeded ? 'confirmed' : 'failed';
    await this.rows.settle(row, status, {
      ...(cancelled ? failureOf('RELAY_FEE_CEILING', this.ceilingReason(row)) : {}),
      txHash: receipt.hash,
      gasUsed: receipt.gasUsed,
      effectiveGasPrice: receipt.gasPrice,
      costWei,
      blockNumber: receipt.blockNumber,
      minedAtMs: block ? block.timestamp * 1000 : this.rows.clock.nowMs(),
    });
  }

  /**
   * The next attempt under the same nonce (nextAttemptUnderCeiling): the call with raised fees, or a
   * cancel at the ceiling, or nothing (held: reported, and looked at again after another stuck
   * delay). The new attempt is written before it is broadcast: a hash that may be mined is always
   * one the ledger knows.
   */
  private async replace(
    row: SponsoredTransactionEntity,
    provider: JsonRpcProvider,
    evmChainId: bigint,
    wallet: Wallet,
    head: number,
  ): Promise<void> {
    const suggested = await provider.getFeeData();
    const current = currentAttempt(row);
    const next = nextAttemptUnderCeiling(
      {
        maxFeePerGas: row.maxFeePerGas,
        maxPriorityFeePerGas: row.maxPriorityFeePerGas,
        cancel: current.cancel === true,
      },
      {
        maxFeePerGas: suggested.maxFeePerGas ?? 0n,
        maxPriorityFeePerGas: suggested.maxPriorityFeePerGas ?? 0n,
      },
      this.rows.policy.feeBumpPercent,
      row.maxFeeCeiling ?? row.maxFeePerGas,
    );
    if (next.kind === 'hold') {
      RelayingMetrics.healed(row.chain, 'held');
      this.rows.logger.warn({
        msg: 'sponsored transaction held at its fee ceiling',
        id: row.id,
        chain: row.chain,
        nonce: row.nonce,
        txHash: row.txHash,
        maxFeeCeiling: String(row.maxFeeCeiling),
        suggestedMaxFeePerGas: String(suggested.maxFeePerGas),
      });
      await this.rows.update(row.id, {
        lastSentAtMs: this.rows.clock.nowMs(),
        nextCheckAtMs: this.rows.clock.nowMs() + this.rows.policy.pollMs,
      });
      return;
    }
    const cancel = next.kind === 'cancel';
    const fees: Eip1559Fees = next.fees;
    const sentAtMs = this.rows.clock.nowMs();
    const unsigned: RelayAttempt = {
      hash: '',
      ...feesAsStrings(fees),
      sentAtMs,
      sentAtBlock: head,
      ...(cancel ? { cancel: true } : {}),
    };
    const tx = await signTransaction(wallet, attemptTransaction(row, unsigned, evmChainId));
    const attempt: RelayAttempt = { ...unsigned, hash: tx.hash };
    if (!(await this.rows.repository.appendAttempt(row.id, attempt))) return;

    let failure: ReturnType<typeof broadcastFailureOf> | undefined;
    try {
      await provider.broadcastTransaction(tx.raw);
    } catch (error) {
      failure = broadcastFailureOf(error);
      if (failure !== 'already-known') {
        this.rows.logger.warn({
          msg: cancel ? 'cancel not taken' : 'replacement not taken',
          id: row.id,
          chain: row.chain,
          nonce: row.nonce,
          failure,
          error: shortMessageOf(error),
        });
      }
    }
    if (failure === undefined || failure === 'already-known') {
      await this.rows.update(row.id, {
        txHash: tx.hash,
        ...fees,
        lastSentAtMs: sentAtMs,
        nextCheckAtMs: sentAtMs + this.rows.policy.pollMs,
      });
      if (cancel) {
        RelayingMetrics.healed(row.chain, 'cancelled');
        this.rows.logger.warn({
          msg: 'sponsored transaction cancelled: it cannot be mined under its fee ceiling',
          id: row.id,
          chain: row.chain,
          swapId: row.swapId,
          nonce: row.nonce,
          previous: row.txHash,
          txHash: tx.hash,
          ...feesAsStrings(fees),
        });
      } else {
        RelayingMetrics.replaced(row.chain);
        this.rows.logger.log({
          msg: 'stuck sponsored transaction replaced',
          id: row.id,
          chain: row.chain,
          nonce: row.nonce,
          previous: row.txHash,
          txHash: tx.hash,
          ...feesAsStrings(fees),
        });
      }
      return;
    }
    if (failure === 'refused') {
      // The node will not take it now (a fee cap under the base fee): it is still the attempt to
      // build on and to send again, so the next one outbids it and the ceiling is reached.
      await this.rows.update(row.id, {
        txHash: tx.hash,
        ...fees,
        lastSentAtMs: sentAtMs,
        nextCheckAtMs: sentAtMs + this.rows.policy.pollMs,
      });
      return;
    }
    if (failure === 'insufficient-funds') this.pool.noteBalance(row.chain, row.relayer, 0n);
    // Nonce used: an earlier attempt was mined meanwhile; the next check finds its receipt. Else
    // the current attempt stays, and a replacement is tried again after another stuck delay.
    const retryAtMs = failure === 'nonce-used' ? sentAtMs : sentAtMs + this.rows.policy.pollMs;
    await this.rows.update(row.id, {
      lastSentAtMs: failure === 'nonce-used' ? row.lastSentAtMs : sentAtMs,
      nextCheckAtMs: retryAtMs,
    });
  }

  private ceilingReason(row: SponsoredTransactionEntity): string {
    return `the relayer's transaction could not be mined under its fee ceiling of ${row.maxFeeCeiling ?? row.maxFeePerGas} wei per gas; a cancel took its nonce ${row.nonce}`;
  }
}
