import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { FAMILY_SPONSORSHIP } from '@swapgw/contracts';
import type { EntityManager } from 'typeorm';
import { RelayerAccountsRepository } from './relayer-accounts.repository';
import { RelayingMetrics } from './relaying-metrics';
import type { LedgerPurpose } from './sponsored-transaction.entity';
import { SponsoredTransactionsRepository } from './sponsored-transactions.repository';

/** What the EVM relayers record (they send, nonce by nonce: RelayersService). */
type RelayerPurpose =
  | (typeof FAMILY_SPONSORSHIP.evm.sponsoredPurposes)[number]
  | (typeof FAMILY_SPONSORSHIP.evm.sponsorPurposes)[number];

/**
 * A user's transaction an account of the service pays the fee of without sending it (a Solana fee
 * payer, a Bitcoin fee wallet, a Cosmos fee granter), or such an account's own (a CPFP child, a fee grant), as its ledger row: no nonce, one attempt under its id, fees in the
 * chain's base unit with a price of 1 (so the budget's pending cap, gasLimit × maxFeePerGas + value,
 * is in that unit too).
 */
export interface FeeAccountTransaction {
  chain: string;
  /** One of its family's ledger purposes (FAMILY_SPONSORSHIP), which are never the EVM relayers'. */
  purpose: Exclude<LedgerPurpose, RelayerPurpose>;
  /** The service's account that pays. */
  account: string;
  swapId: string;
  stepIndex: number;
  owner: string;
  /** The user's wallet. */
  to: string;
  /** The fully signed transaction. */
  data: string;
  /** The most its fees can be. */
  maxFee: bigint;
  /** What else the account may pay (Solana rent). */
  value: bigint;
  /** Its id on the chain (signature, txid). */
  txHash: string;
  /** A Bitcoin fee bump's child: the fee this attempt pays (maxFee is the most any may). */
  attemptFee?: bigint;
}

/** The ledger rows of fee accounts' transactions (Solana fee payers, Bitcoin fee wallets, Cosmos fee granters). */
@Injectable()
export class FeeAccountLedger {
  constructor(
    private readonly accounts: RelayerAccountsRepository,
    private readonly transactions: SponsoredTransactionsRepository,
  ) {}

  /**
   * Writes the pending ledger row of `tx` in the caller's transaction and answers its id. The account
   * gets its relayer_accounts row first (the ledger's foreign key; its nonce is never used).
   */
  async record(manager: EntityManager, tx: FeeAccountTransaction, nowMs: number): Promise<string> {
    await this.accounts.ensureAccount(manager, tx.chain, tx.account);
    const id = randomUUID();
    await this.transactions.record(manager, {
      id,
      chain: tx.chain,
      relayer: tx.account,
      nonce: null,
      purpose: tx.purpose,
      swapId: tx.swapId,
      stepIndex: tx.stepIndex,
      owner: tx.owner,
      to: tx.to,
      data: tx.data,
      value: tx.value,
      gasLimit: tx.maxFee,
      txHash: tx.txHash,
      attempts: [
        {
          hash: tx.txHash,
          maxFeePerGas: '1',
          maxPriorityFeePerGas: '0',
          sentAtMs: nowMs,
          ...(tx.attemptFee === undefined ? {} : { feeSats: tx.attemptFee.toString() }),
        },
      ],
      maxFeePerGas: 1n,
      maxPriorityFeePerGas: 0n,
      status: 'pending',
      lastSentAtMs: nowMs,
      nextCheckAtMs: nowMs,
    });
    RelayingMetrics.sent(tx.chain, tx.purpose);
    return id;
  }
}
