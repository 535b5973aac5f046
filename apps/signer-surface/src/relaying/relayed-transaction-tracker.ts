import { Inject, Injectable, Logger } from '@nestjs/common';
import { schemaOf } from '@swapgw/messaging';
import { PeriodicWork } from '@swapgw/runtime';
import { VersionedTransaction } from '@solana/web3.js';
import { JsonRpcProvider, TransactionReceipt, Wallet } from 'ethers';
import { DataSource, In } from 'typeorm';
import { SignerChains } from '../chains/signer-chains';
import { Clock, SystemClock } from '@swapgw/runtime';
import { shortMessageOf } from '@swapgw/chains';
import { BitcoinFeeBumps, conflictingSpendOf } from './bitcoin-fee-bump';
import { BitcoinFeeWallets } from './bitcoin-fee-wallets';
import { broadcastFailureOf } from './broadcast-errors';
import { Eip1559Fees, feesAsStrings, nextAttemptUnderCeiling } from './fee-bump';
import { attemptTransaction, currentAttempt, receiptOfAny } from './relayed-attempts';
import { RelayerPool } from './relayer-pool';
import { Relayers } from './relayers';
import { RELAYING_DATA_SOURCE } from './relaying-database';
import { RelayingMetrics } from './relaying-metrics';
import { signTransaction } from './signed-transaction';
import { SolanaFeePayers } from './solana-fee-payers';
import {
  RelayAttempt,
  SponsoredTransactionEntity,
  SponsoredTransactionStatus,
} from './sponsored-transaction.entity';
import type { SponsoredFailure } from '../signing/sponsored/gas-sponsor';

export interface RelayedTrackingPolicy {
  /** Interval of the loop, and of the checks of one pending transaction. */
  pollMs: number;
  /** RELAYER_STUCK_AFTER_MS: not mined this long after its latest attempt → replaced. */
  stuckAfterMs: number;
  /** RELAYER_FEE_BUMP_PERCENT. */
  feeBumpPercent: number;
  batchSize: number;
  /** How long a claimed row is left to the instance that claimed it (a dead one's rows come back after it). */
  leaseMs: number;
  /** How often relayer balances are read (the balance gauge, and which relayers senders skip). */
  balanceRefreshMs: number;
  /** RELAYER_RECONCILE_MS: how often each relayer's nonce ledger is reconciled with its chain (and at start). */
  reconcileMs: number;
  /** A transaction whose nonce another sender took is sent again at a fresh nonce at most this many times. */
  maxReissues?: number;
}

export const RELAYED_TRACKING_POLICY = Symbol('RelayedTrackingPolicy');

/**
 * Follows the relayers' pending transactions until they are mined or end. Each pass claims due
 * rows with FOR UPDATE SKIP LOCKED and a lease (next_check_at_ms), so several instances share the
 * work, then for each:
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
 * Solana rows (a fee payer's co-signed transaction) and Bitcoin rows (a transaction whose fee input
 * a fee wallet signed) are settled from the node's record of them and never replaced (checkSolana,
 * checkBitcoin). On its own clocks it also refreshes the relayer, fee payer and fee wallet
 * balances, reconciles every relayer's nonce ledger with its chain (first on start), and sets the
 * oldest-pending gauge.
 */
@Injectable()
export class RelayedTransactionTracker {
  private readonly logger = new Logger(RelayedTransactionTracker.name);
  private readonly work: PeriodicWork;
  private balancesReadAtMs = Number.NEGATIVE_INFINITY;
  private reconciledAtMs = Number.NEGATIVE_INFINITY;

  constructor(
    @Inject(RELAYING_DATA_SOURCE) private readonly dataSource: DataSource,
    private readonly chains: SignerChains,
    private readonly pool: RelayerPool,
    private readonly relayers: Relayers,
    @Inject(RELAYED_TRACKING_POLICY) private readonly policy: RelayedTrackingPolicy,
    private readonly clock: Clock = new SystemClock(),
    private readonly feePayers?: SolanaFeePayers,
    private readonly feeWallets?: BitcoinFeeWallets,
    /** Absent: stuck Bitcoin transactions are only followed, never bumped. */
    private readonly feeBumps?: BitcoinFeeBumps,
  ) {
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
    if (this.clock.nowMs() - this.balancesReadAtMs >= this.policy.balanceRefreshMs) {
      this.balancesReadAtMs = this.clock.nowMs();
      await Promise.all([
        this.pool.refreshBalances(),
        this.feePayers?.refreshBalances(),
        this.feeWallets?.refreshBalances(),
      ]);
    }
    if (this.clock.nowMs() - this.reconciledAtMs >= this.policy.reconcileMs) {
      this.reconciledAtMs = this.clock.nowMs();
      await this.relayers.reconcileAll();
      await this.reportOldestPending();
    }
    const due = await this.claimDue();
    for (const row of due) {
      try {
        await this.check(row);
      } catch (error) {
        this.logger.warn({
          msg: 'relayed transaction check failed; will retry',
          id: row.id,
          chain: row.chain,
          error: shortMessageOf(error),
        });
        await this.update(row.id, { nextCheckAtMs: this.clock.nowMs() + this.policy.pollMs * 5 });
      }
    }
    return due.length;
  }

  private async claimDue(): Promise<SponsoredTransactionEntity[]> {
    const now = this.clock.nowMs();
    const table = `"${schemaOf(this.dataSource)}"."sponsored_transactions"`;
    const claimed = (await this.dataSource.query(
      `UPDATE ${table} SET "next_check_at_ms" = $2, "updated_at" = now()
        WHERE "id" IN (SELECT "id" FROM ${table} WHERE "status" = 'pending' AND "next_check_at_ms" <= $1
                        ORDER BY "next_check_at_ms" LIMIT $3 FOR UPDATE SKIP LOCKED)
        RETURNING "id"`,
      [now, now + this.policy.leaseMs, this.policy.batchSize],
    )) as [Array<{ id: string }>, number];
    const ids = claimed[0].map((r) => r.id);
    if (ids.length === 0) return [];
    return this.dataSource.manager.find(SponsoredTransactionEntity, {
      where: { id: In(ids) },
      order: { nextCheckAtMs: 'ASC' },
    });
  }

  private async check(row: SponsoredTransactionEntity): Promise<void> {
    if (row.purpose === 'solana-transaction') return this.checkSolana(row);
    if (row.purpose === 'bitcoin-transaction') return this.checkBitcoin(row);
    if (row.purpose === 'bitcoin-fee-bump') return this.checkBitcoinFeeBump(row);
    const lookup = this.chains.families.evm(row.chain);
    if (!lookup.ok) {
      await this.update(row.id, { nextCheckAtMs: this.clock.nowMs() + this.policy.pollMs * 10 });
      return;
    }
    const { provider, evmChainId } = lookup.client;
    // The mined nonce is read before the receipts: had an attempt been mined after the receipts
    // were read, the nonce read first could not be past it, so "past it, no receipt" means taken.
    const minedNonce = await provider.getTransactionCount(row.relayer, 'latest');
    const mined = await receiptOfAny(provider, row.attempts);
    if (mined) return this.recordMined(row, mined.receipt, mined.attempt, provider);
    if (row.nonce !== null && minedNonce > row.nonce) return this.nonceTaken(row);
    if (this.clock.nowMs() - row.lastSentAtMs < this.policy.stuckAfterMs) {
      await this.update(row.id, { nextCheckAtMs: this.clock.nowMs() + this.policy.pollMs });
      return;
    }
    const wallet = this.pool.wallet(row.chain, row.relayer);
    if (!wallet) {
      this.logger.error({
        msg: 'stuck sponsored transaction of a relayer whose key is no longer configured',
        id: row.id,
        chain: row.chain,
        relayer: row.relayer,
      });
      await this.update(row.id, { nextCheckAtMs: this.clock.nowMs() + this.policy.stuckAfterMs });
      return;
    }
    if (!(await provider.getTransaction(row.txHash))) {
      // The node lost it (evicted, restarted, an RPC provider that dropped it): the same
      // transaction again, no fee raised, unless the node refuses it as it is (its fee cap under
      // the base fee: a node evicts those), when it is replaced like a stuck one.
      const resent = await this.relayers.resend({ chain: row.chain, provider, evmChainId, wallet }, row);
      if (resent !== 'refused') {
        await this.update(row.id, {
          lastSentAtMs: this.clock.nowMs(),
          nextCheckAtMs: this.clock.nowMs() + this.policy.pollMs,
        });
        return;
      }
    }
    if (row.nonce !== null && row.nonce > minedNonce) {
      // Queued behind an earlier nonce of the relayer: raising its fees would not help.
      await this.update(row.id, { nextCheckAtMs: this.clock.nowMs() + this.policy.pollMs });
      return;
    }
    const head = await provider.getBlockNumber();
    const current = currentAttempt(row);
    if (current.sentAtBlock === undefined || head <= current.sentAtBlock) {
      // No block was mined since it was sent (or first found stuck): the chain is not producing
      // blocks (a halt, mining paused), which higher fees do not cure. Looked at again.
      if (current.sentAtBlock === undefined) await this.noteStuckAtBlock(row, head);
      await this.update(row.id, { nextCheckAtMs: this.clock.nowMs() + this.policy.pollMs });
      return;
    }
    return this.replace(row, provider, evmChainId, wallet, head);
  }

  /** Records the head at which the current attempt was first found stuck (its sentAtBlock). */
  private async noteStuckAtBlock(row: SponsoredTransactionEntity, head: number): Promise<void> {
    await this.dataSource.query(
      `UPDATE "${schemaOf(this.dataSource)}"."sponsored_transactions"
          SET "attempts" = jsonb_set("attempts", ARRAY[(jsonb_array_length("attempts") - 1)::text, 'sentAtBlock'], to_jsonb($2::bigint)),
              "updated_at" = now()
        WHERE "id" = $1 AND "status" = 'pending' AND jsonb_array_length("attempts") = $3`,
      [row.id, head, row.attempts.length],
    );
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
      return this.settle(row, 'dropped', {
        costWei: 0n,
        ...(cancelling ? failureOf('RELAY_FEE_CEILING', this.ceilingReason(row)) : {}),
      });
    }
    if (nonces.size > (this.policy.maxReissues ?? DEFAULT_MAX_REISSUES)) {
      return this.settle(row, 'dropped', {
        costWei: 0n,
        ...failureOf(
          'RELAY_DROPPED',
          `nonces ${[...nonces].join(', ')} of relayer ${row.relayer} were each taken by another transaction`,
        ),
      });
    }
    const outcome = await this.relayers.reissue(row, this.policy.feeBumpPercent);
    switch (outcome.kind) {
      case 'reissued':
        RelayingMetrics.healed(row.chain, 'reissued');
        this.logger.warn({
          msg: 'sponsored transaction re-issued: another sender took its nonce',
          id: row.id,
          chain: row.chain,
          previousNonce: row.nonce,
          nonce: outcome.nonce,
          txHash: outcome.txHash,
        });
        return;
      case 'later':
        await this.update(row.id, { nextCheckAtMs: this.clock.nowMs() + this.policy.pollMs });
        return;
      case 'refused':
        return this.settle(row, 'dropped', {
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
    await this.settle(row, status, {
      ...(cancelled ? failureOf('RELAY_FEE_CEILING', this.ceilingReason(row)) : {}),
      txHash: receipt.hash,
      gasUsed: receipt.gasUsed,
      effectiveGasPrice: receipt.gasPrice,
      costWei,
      blockNumber: receipt.blockNumber,
      minedAtMs: block ? block.timestamp * 1000 : this.clock.nowMs(),
    });
  }

  /**
   * A user's Solana transaction the service's fee payer co-signed. Confirmed (or finalized): settled
   * with the fee the node charged (meta.fee) and what the fee payer's balance lost (fee and rent;
   * never below 0), `failed` when it executed with an error (its fee is paid all the same). Unknown
   * to the node once its blockhash expired: it can never land, `dropped`, nothing paid. Nothing is
   * sent from here: the signing request's tracker resends the transaction while it can land.
   */
  private async checkSolana(row: SponsoredTransactionEntity): Promise<void> {
    const lookup = this.chains.families.solana(row.chain);
    if (!lookup.ok) {
      await this.update(row.id, { nextCheckAtMs: this.clock.nowMs() + this.policy.pollMs * 10 });
      return;
    }
    const { connection } = lookup.client;
    const statusOf = async () =>
      (await connection.getSignatureStatuses([row.txHash], { searchTransactionHistory: true })).value[0];
    const status = await statusOf();
    if (status?.confirmationStatus === 'confirmed' || status?.confirmationStatus === 'finalized') {
      const tx = await connection.getTransaction(row.txHash, {
        commitment: 'confirmed',
        maxSupportedTransactionVersion: 0,
      });
      const payer =
        tx?.transaction.message.staticAccountKeys.findIndex((key) => key.toBase58() === row.relayer) ?? -1;
      if (tx?.meta && payer >= 0) {
        const lost = BigInt(tx.meta.preBalances[payer]) - BigInt(tx.meta.postBalances[payer]);
        return this.settle(row, tx.meta.err ? 'failed' : 'confirmed', {
          gasUsed: BigInt(tx.meta.fee),
          effectiveGasPrice: 1n,
          costWei: lost > 0n ? lost : 0n,
          blockNumber: tx.slot,
          minedAtMs: tx.blockTime ? tx.blockTime * 1000 : this.clock.nowMs(),
        });
      }
    } else if (!status) {
      const { recentBlockhash } = VersionedTransaction.deserialize(Buffer.from(row.data, 'base64')).message;
      const { value: valid } = await connection.isBlockhashValid(recentBlockhash, {
        commitment: 'confirmed',
      });
      // Looked at once more: it may have landed between the status read and the blockhash check.
      if (!valid && !(await statusOf())) return this.settle(row, 'dropped', { costWei: 0n });
    }
    await this.update(row.id, { nextCheckAtMs: this.clock.nowMs() + this.policy.pollMs });
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
  private async checkBitcoin(row: SponsoredTransactionEntity): Promise<void> {
    const progress = await this.feeWallets?.progress(row.chain, row.txHash);
    if (!progress)
      return this.update(row.id, { nextCheckAtMs: this.clock.nowMs() + this.policy.pollMs * 10 });
    if (progress.kind === 'confirmed') {
      return this.settle(row, 'confirmed', {
        gasUsed: row.gasLimit,
        effectiveGasPrice: 1n,
        costWei: row.gasLimit,
        blockNumber: progress.blockNumber,
        minedAtMs: progress.blockTimeMs ?? this.clock.nowMs(),
      });
    }
    if (progress.kind === 'in-pool' && this.feeBumps?.isStuck(row)) await this.feeBumps.bumpIfStuck(row);
    if (progress.kind === 'unknown') {
      const client = this.feeWallets?.clientOf(row.chain);
      const conflict = client ? await conflictingSpendOf(client, row.data, row.txHash) : null;
      if (conflict) {
        await this.settle(row, 'dropped', {
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
    if (progress.kind !== 'unknown' || this.clock.nowMs() < heldUntilMs) {
      await this.update(row.id, { nextCheckAtMs: this.clock.nowMs() + this.policy.pollMs });
      return;
    }
    await this.settle(row, 'lost', {
      costWei: 0n,
      ...failureOf(
        'RELAY_LOST',
        `the chain does not know Bitcoin transaction ${row.txHash} after the step's payload expired`,
      ),
    });
    await this.feeWallets?.releaseSpentBy(row.chain, row.txHash);
  }

  /** A fee wallet's CPFP child of a stuck Bitcoin transaction (BitcoinFeeBumps.follow). */
  private async checkBitcoinFeeBump(row: SponsoredTransactionEntity): Promise<void> {
    const settlement = this.feeBumps ? await this.feeBumps.follow(row) : null;
    if (settlement) return this.settle(row, settlement.status, settlement.outcome);
    await this.update(row.id, { nextCheckAtMs: this.clock.nowMs() + this.policy.pollMs });
  }

  /** Final state of a pending row; counted in the metrics by the instance whose update took. */
  private async settle(
    row: SponsoredTransactionEntity,
    status: Exclude<SponsoredTransactionStatus, 'pending'>,
    outcome: Partial<SponsoredTransactionEntity> & { costWei: bigint },
  ): Promise<void> {
    const result = await this.dataSource.manager.update(
      SponsoredTransactionEntity,
      { id: row.id, status: 'pending' },
      { ...outcome, status, nextCheckAtMs: null },
    );
    if (!result.affected) return;
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
      this.policy.feeBumpPercent,
      row.maxFeeCeiling ?? row.maxFeePerGas,
    );
    if (next.kind === 'hold') {
      RelayingMetrics.healed(row.chain, 'held');
      this.logger.warn({
        msg: 'sponsored transaction held at its fee ceiling',
        id: row.id,
        chain: row.chain,
        nonce: row.nonce,
        txHash: row.txHash,
        maxFeeCeiling: String(row.maxFeeCeiling),
        suggestedMaxFeePerGas: String(suggested.maxFeePerGas),
      });
      await this.update(row.id, {
        lastSentAtMs: this.clock.nowMs(),
        nextCheckAtMs: this.clock.nowMs() + this.policy.pollMs,
      });
      return;
    }
    const cancel = next.kind === 'cancel';
    const fees: Eip1559Fees = next.fees;
    const sentAtMs = this.clock.nowMs();
    const unsigned: RelayAttempt = {
      hash: '',
      ...feesAsStrings(fees),
      sentAtMs,
      sentAtBlock: head,
      ...(cancel ? { cancel: true } : {}),
    };
    const tx = await signTransaction(wallet, attemptTransaction(row, unsigned, evmChainId));
    const attempt: RelayAttempt = { ...unsigned, hash: tx.hash };
    const recorded = await this.dataSource.query(
      `UPDATE "${schemaOf(this.dataSource)}"."sponsored_transactions" SET "attempts" = "attempts" || $2::jsonb, "updated_at" = now()
        WHERE "id" = $1 AND "status" = 'pending' RETURNING "id"`,
      [row.id, JSON.stringify([attempt])],
    );
    if ((recorded as [unknown[], number])[0].length === 0) return;

    let failure: ReturnType<typeof broadcastFailureOf> | undefined;
    try {
      await provider.broadcastTransaction(tx.raw);
    } catch (error) {
      failure = broadcastFailureOf(error);
      if (failure !== 'already-known') {
        this.logger.warn({
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
      await this.update(row.id, {
        txHash: tx.hash,
        ...fees,
        lastSentAtMs: sentAtMs,
        nextCheckAtMs: sentAtMs + this.policy.pollMs,
      });
      if (cancel) {
        RelayingMetrics.healed(row.chain, 'cancelled');
        this.logger.warn({
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
        this.logger.log({
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
      await this.update(row.id, {
        txHash: tx.hash,
        ...fees,
        lastSentAtMs: sentAtMs,
        nextCheckAtMs: sentAtMs + this.policy.pollMs,
      });
      return;
    }
    if (failure === 'insufficient-funds') this.pool.noteBalance(row.chain, row.relayer, 0n);
    // Nonce used: an earlier attempt was mined meanwhile; the next check finds its receipt. Else
    // the current attempt stays, and a replacement is tried again after another stuck delay.
    const retryAtMs = failure === 'nonce-used' ? sentAtMs : sentAtMs + this.policy.pollMs;
    await this.update(row.id, {
      lastSentAtMs: failure === 'nonce-used' ? row.lastSentAtMs : sentAtMs,
      nextCheckAtMs: retryAtMs,
    });
  }

  private ceilingReason(row: SponsoredTransactionEntity): string {
    return `the relayer's transaction could not be mined under its fee ceiling of ${row.maxFeeCeiling ?? row.maxFeePerGas} wei per gas; a cancel took its nonce ${row.nonce}`;
  }

  /**
   * The age of the oldest pending transaction and the number pending, per chain with relayers or
   * fee payers (0 when none).
   */
  private async reportOldestPending(): Promise<void> {
    const rows = (await this.dataSource.query(
      `SELECT "chain", EXTRACT(EPOCH FROM now() - min("created_at"))::float8 AS "seconds", count(*)::int AS "count"
         FROM "${schemaOf(this.dataSource)}"."sponsored_transactions" WHERE "status" = 'pending' GROUP BY "chain"`,
    )) as Array<{ chain: string; seconds: number; count: number }>;
    const pending = new Map(rows.map((r) => [r.chain, r]));
    for (const chain of new Set([...this.pool.chainIds(), ...pending.keys()])) {
      RelayingMetrics.pending(chain, pending.get(chain)?.seconds ?? 0, pending.get(chain)?.count ?? 0);
    }
  }

  private async update(id: string, changes: Partial<SponsoredTransactionEntity>): Promise<void> {
    await this.dataSource.manager.update(SponsoredTransactionEntity, { id, status: 'pending' }, changes);
  }
}

/** A transaction re-issued at a fresh nonce this many times and taken again is dropped. */
const DEFAULT_MAX_REISSUES = 3;

const failureOf = (code: SponsoredFailure['code'], reason: string) => ({
  failureCode: code,
  failureReason: reason,
});
