import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { SponsoredFailure } from './gas-sponsor';
import {
  LedgerPurpose,
  SponsoredPurpose,
  SponsoredTransactionEntity,
  SponsoredTransactionStatus,
} from './sponsored-transaction.entity';
import { SponsoredTransactionsRepository } from './sponsored-transactions.repository';

/** Where one sponsored transaction stands, for the step that caused it. */
export interface SponsoredTransactionView {
  id: string;
  chain: string;
  purpose: LedgerPurpose;
  /** Null on nonce-fill rows (the operator's, no step). */
  swapId: string | null;
  stepIndex: number | null;
  relayer: string;
  /** Null on Solana (a fee payer's transaction has no nonce). */
  nonce: number | null;
  status: SponsoredTransactionStatus;
  /** The latest attempt's hash while pending; the mined one once mined. */
  txHash: string;
  /** Every hash it was sent under, oldest first (replacements share the nonce). */
  hashes: string[];
  /** Why it will never carry its step (dropped, cancelled, lost). */
  failure: SponsoredFailure | null;
  /** Set once mined (confirmed or failed). */
  mined: {
    txHash: string;
    blockNumber: number;
    minedAtMs: number;
    gasUsed: bigint;
    effectiveGasPrice: bigint;
    costWei: bigint;
  } | null;
}

/**
 * Reads of the sponsorship ledger for the signing code: which hash of a relayed transaction was
 * mined, with what receipt, and what was already sent for a step.
 */
@Injectable()
export class SponsoredTransactions {
  constructor(private readonly rows: SponsoredTransactionsRepository) {}

  async lookup(id: string, manager?: EntityManager): Promise<SponsoredTransactionView | undefined> {
    const row = await this.rows.byId(id, manager);
    return row ? viewOf(row) : undefined;
  }

  /** The hash to follow: the latest attempt's while pending, the mined one once mined. */
  async currentHash(id: string, manager?: EntityManager): Promise<string | undefined> {
    return (await this.lookup(id, manager))?.txHash;
  }

  /** The latest transaction sent for a step and purpose (e.g. a submit retried after a crash). */
  async latestFor(
    swapId: string,
    stepIndex: number,
    purpose: SponsoredPurpose,
    manager?: EntityManager,
  ): Promise<SponsoredTransactionView | undefined> {
    const row = await this.rows.latestOfStep(swapId, stepIndex, purpose, manager);
    return row ? viewOf(row) : undefined;
  }
}

export function viewOf(row: SponsoredTransactionEntity): SponsoredTransactionView {
  const mined =
    (row.status === 'confirmed' || row.status === 'failed') && row.blockNumber !== null
      ? {
          txHash: row.txHash,
          blockNumber: row.blockNumber,
          minedAtMs: row.minedAtMs ?? 0,
          gasUsed: row.gasUsed ?? 0n,
          effectiveGasPrice: row.effectiveGasPrice ?? 0n,
          costWei: row.costWei ?? 0n,
        }
      : null;
  return {
    id: row.id,
    chain: row.chain,
    purpose: row.purpose,
    swapId: row.swapId,
    stepIndex: row.stepIndex,
    relayer: row.relayer,
    nonce: row.nonce,
    status: row.status,
    txHash: row.txHash,
    hashes: row.attempts.map((a) => a.hash),
    failure:
      row.failureCode !== null
        ? { code: row.failureCode as SponsoredFailure['code'], reason: row.failureReason ?? row.failureCode }
        : null,
    mined,
  };
}
