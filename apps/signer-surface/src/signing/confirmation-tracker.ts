import { saveSigningRequest } from './save-signing-request';
import { JsonRpcProvider, TransactionReceipt } from 'ethers';
import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { SignerChains } from '../chains/signer-chains';
import { CLOCK, type Clock } from '../clock';
import { isRpcUnreachable, isSolanaRpcUnreachable, replayRevertReason, shortMessageOf } from '@swapgw/chains';
import { SigningEventsOutbox, StepFailureCodes } from './signing-events.outbox';
import { SigningRequestEntity } from './signing-request.entity';
import { PeriodicTask } from './periodic-task';
import { EvmChainClient, SolanaChainClient } from '@swapgw/chains/families';
import { VersionedTransaction } from '@solana/web3.js';
import { GAS_SPONSOR, type GasSponsor } from './sponsored/gas-sponsor';

export interface ConfirmationPolicy {
  pollMs: number;
  confirmationsRequired: number;
  /** A submitted transaction the node does not know is sent again after this long. */
  rebroadcastAfterMs: number;
  batchSize: number;
}

export const CONFIRMATION_POLICY = Symbol('ConfirmationPolicy');

/**
 * Follows submitted transactions until they are confirmed or failed. Each pass claims due rows with
 * FOR UPDATE SKIP LOCKED, so several instances share the work and a restart simply resumes it.
 */
@Injectable()
export class ConfirmationTracker extends PeriodicTask {
  constructor(
    private readonly dataSource: DataSource,
    private readonly chains: SignerChains,
    private readonly events: SigningEventsOutbox,
    @Inject(CONFIRMATION_POLICY) private readonly policy: ConfirmationPolicy,
    /** The relayers: a relayed step's transaction may be replaced (fee bump) under a new hash. */
    @Inject(GAS_SPONSOR) private readonly sponsor: GasSponsor | null = null,
    @Inject(CLOCK) private readonly now: Clock = Date.now,
  ) {
    super('ConfirmationTracker', policy.pollMs);
  }

  /** One pass over the due submitted requests; answers how many it looked at. */
  async runOnce(): Promise<number> {
    return this.dataSource.transaction(async (manager) => {
      const due = await manager
        .createQueryBuilder(SigningRequestEntity, 'r')
        .where(`r.status = 'submitted' AND (r.next_check_at_ms IS NULL OR r.next_check_at_ms <= :now)`, {
          now: this.now(),
        })
        .orderBy('r.next_check_at_ms', 'ASC', 'NULLS FIRST')
        .limit(this.policy.batchSize)
        .setLock('pessimistic_write')
        .setOnLocked('skip_locked')
        .getMany();
      for (const row of due) await this.check(row, manager);
      return due.length;
    });
  }

  private async check(row: SigningRequestEntity, manager: EntityManager): Promise<void> {
    const lookup = this.chains.signing(row.chain);
    if (!lookup.ok) {
      row.nextCheckAtMs = this.now() + this.policy.pollMs * 10;
      await saveSigningRequest(manager, row);
      return;
    }
    switch (lookup.client.family) {
      case 'evm':
        return this.checkEvm(row, lookup.client, manager);
      case 'solana':
        return this.checkSolana(row, lookup.client, manager);
    }
  }

  /** EVM: the receipt, with `confirmationsRequired` blocks on top; a relayed step's hash may change (fee bump). */
  private async checkEvm(
    row: SigningRequestEntity,
    surface: EvmChainClient,
    manager: EntityManager,
  ): Promise<void> {
    try {
      if (row.sponsoredTxId && this.sponsor) {
        const relayed = await this.sponsor.status(row.sponsoredTxId);
        if (relayed.minedHash && relayed.minedHash !== row.txHash) row.txHash = relayed.minedHash;
        if (relayed.state === 'dropped') {
          row.status = 'failed';
          row.failureCode = StepFailureCodes.rejected;
          row.failureReason = `the relayer's transaction was dropped (${relayed.hashes.join(', ')})`;
          row.nextCheckAtMs = null;
          await saveSigningRequest(manager, row);
          await this.events.failed(manager, row);
          return;
        }
      }
      const receipt = await surface.provider.getTransactionReceipt(row.txHash!);
      if (!receipt && row.sponsoredTxId) {
        // The relayers resend (and fee-bump) their own transactions; only look again.
        row.nextCheckAtMs = this.now() + this.policy.pollMs;
      } else if (!receipt) {
        await this.whenNotMined(row, surface.provider);
      } else {
        await this.whenMined(row, receipt, surface.provider, manager);
      }
    } catch (error) {
      this.logger.warn({
        msg: 'confirmation check failed; will retry',
        txHash: row.txHash,
        unreachable: isRpcUnreachable(error),
        error: shortMessageOf(error),
      });
      row.nextCheckAtMs = this.now() + this.policy.pollMs * 5;
    }
    await saveSigningRequest(manager, row);
  }

  private async whenNotMined(row: SigningRequestEntity, provider: JsonRpcProvider): Promise<void> {
    row.nextCheckAtMs = this.now() + this.policy.pollMs;
    const pending = await provider.getTransaction(row.txHash!);
    const sentAt = row.broadcastAt?.getTime() ?? 0;
    if (pending || this.now() - sentAt < this.policy.rebroadcastAfterMs) return;
    // Accepted but unknown to the node (crash before broadcast, node restarted, pool evicted it).
    try {
      await provider.broadcastTransaction(row.rawTx!);
      this.logger.log({ msg: 'transaction sent again', txHash: row.txHash });
    } catch (error) {
      this.logger.warn({
        msg: 'sending the transaction again failed',
        txHash: row.txHash,
        error: shortMessageOf(error),
      });
    }
    row.broadcastAt = new Date(this.now());
  }

  private async whenMined(
    row: SigningRequestEntity,
    receipt: TransactionReceipt,
    provider: JsonRpcProvider,
    manager: EntityManager,
  ): Promise<void> {
    const confirmations = await receipt.confirmations();
    const newlyIncluded = row.blockNumber !== receipt.blockNumber;
    row.blockNumber = receipt.blockNumber;
    row.confirmations = confirmations;
    if (receipt.status === 0) {
      row.status = 'failed';
      row.failureCode = StepFailureCodes.reverted;
      row.failureReason = await replayRevertReason(provider, receipt);
      row.nextCheckAtMs = null;
      await saveSigningRequest(manager, row);
      await this.events.failed(manager, row);
      this.logger.warn({
        msg: 'transaction reverted',
        swapId: row.swapId,
        txHash: row.txHash,
        reason: row.failureReason,
      });
      return;
    }
    // First sight of the transaction in this block (or in a new one after a reorg): the swap is
    // `confirming` from here, even when the same pass finds enough confirmations.
    if (newlyIncluded)
      await this.events.included(manager, row, {
        confirmations,
        required: this.policy.confirmationsRequired,
      });
    if (confirmations < this.policy.confirmationsRequired) {
      row.nextCheckAtMs = this.now() + this.policy.pollMs;
      return;
    }
    const block = await provider.getBlock(receipt.blockNumber);
    row.status = 'confirmed';
    row.confirmedAtMs = block ? block.timestamp * 1000 : this.now();
    row.nextCheckAtMs = null;
    await saveSigningRequest(manager, row);
    await this.events.confirmed(manager, row);
    this.logger.log({
      msg: 'transaction confirmed',
      swapId: row.swapId,
      stepIndex: row.stepIndex,
      txHash: row.txHash,
      confirmations,
    });
  }

  /**
   * Solana: getSignatureStatuses. `confirmed` or `finalized` → step-confirmed (slot as block
   * number, block time as confirmedAtMs); an execution error → step-failed TX_REVERTED with the
   * error; unknown to the node past the rebroadcast delay → sent again while its blockhash is valid,
   * else it can never land: step-failed TX_REJECTED.
   */
  private async checkSolana(
    row: SigningRequestEntity,
    surface: SolanaChainClient,
    manager: EntityManager,
  ): Promise<void> {
    try {
      const {
        value: [status],
      } = await surface.connection.getSignatureStatuses([row.txHash!], { searchTransactionHistory: true });
      if (!status) {
        await this.whenSolanaUnknown(row, surface, manager);
        return;
      }
      const newlyIncluded = row.blockNumber !== status.slot;
      row.blockNumber = status.slot;
      if (status.err) {
        row.status = 'failed';
        row.failureCode = StepFailureCodes.reverted;
        row.failureReason = JSON.stringify(status.err);
        row.nextCheckAtMs = null;
        await saveSigningRequest(manager, row);
        await this.events.failed(manager, row);
        this.logger.warn({
          msg: 'Solana transaction failed',
          swapId: row.swapId,
          txHash: row.txHash,
          reason: row.failureReason,
        });
        return;
      }
      // Solana counts commitment, not blocks: `processed` is in a block, `confirmed` is enough.
      const confirmed =
        status.confirmationStatus === 'confirmed' || status.confirmationStatus === 'finalized';
      if (newlyIncluded)
        await this.events.included(manager, row, { confirmations: confirmed ? 1 : 0, required: 1 });
      if (!confirmed) {
        row.nextCheckAtMs = this.now() + this.policy.pollMs;
        await saveSigningRequest(manager, row);
        return;
      }
      const blockTime = await surface.connection.getBlockTime(status.slot).catch(() => null);
      row.status = 'confirmed';
      // `confirmations` is null once finalized (rooted): at least one, as the event requires.
      row.confirmations = Math.max(1, status.confirmations ?? 1);
      row.confirmedAtMs = blockTime ? blockTime * 1000 : this.now();
      row.nextCheckAtMs = null;
      await saveSigningRequest(manager, row);
      await this.events.confirmed(manager, row);
      this.logger.log({
        msg: 'Solana transaction confirmed',
        swapId: row.swapId,
        stepIndex: row.stepIndex,
        txHash: row.txHash,
        slot: status.slot,
      });
    } catch (error) {
      this.logger.warn({
        msg: 'confirmation check failed; will retry',
        txHash: row.txHash,
        unreachable: isSolanaRpcUnreachable(error),
        error: (error as Error).message,
      });
      row.nextCheckAtMs = this.now() + this.policy.pollMs * 5;
      await saveSigningRequest(manager, row);
    }
  }

  private async whenSolanaUnknown(
    row: SigningRequestEntity,
    surface: SolanaChainClient,
    manager: EntityManager,
  ): Promise<void> {
    row.nextCheckAtMs = this.now() + this.policy.pollMs;
    const sentAt = row.broadcastAt?.getTime() ?? 0;
    if (this.now() - sentAt >= this.policy.rebroadcastAfterMs) {
      const bytes = Buffer.from(row.rawTx!, 'base64');
      const blockhash = VersionedTransaction.deserialize(bytes).message.recentBlockhash;
      const { value: valid } = await surface.connection.isBlockhashValid(blockhash, {
        commitment: 'confirmed',
      });
      // Looked at once more: it may have landed between the status read and the blockhash check.
      const landed =
        !valid &&
        (await surface.connection.getSignatureStatuses([row.txHash!], { searchTransactionHistory: true }))
          .value[0];
      if (!valid && !landed) {
        row.status = 'failed';
        row.failureCode = StepFailureCodes.rejected;
        row.failureReason = `the transaction never landed and its blockhash ${blockhash} expired`;
        row.nextCheckAtMs = null;
        await saveSigningRequest(manager, row);
        await this.events.failed(manager, row);
        return;
      }
      if (landed) {
        await saveSigningRequest(manager, row);
        return;
      }
      try {
        await surface.connection.sendRawTransaction(bytes, { skipPreflight: true, maxRetries: 0 });
        this.logger.log({ msg: 'transaction sent again', txHash: row.txHash });
      } catch (error) {
        this.logger.warn({
          msg: 'sending the transaction again failed',
          txHash: row.txHash,
          error: (error as Error).message,
        });
      }
      row.broadcastAt = new Date(this.now());
    }
    await saveSigningRequest(manager, row);
  }
}
