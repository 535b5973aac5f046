import { schemaOf } from '@swapgw/messaging';
import type { DataSource, EntityManager } from 'typeorm';
import { evmNonceOf } from './relayed-attempts';
import { RelayAttempt, SponsoredTransactionEntity } from './sponsored-transaction.entity';

/** A relayer account's row, locked FOR UPDATE by the caller's transaction. */
export interface LockedAccount {
  address: string;
  next_nonce: string;
}

/**
 * The SQL of the relayers' nonce ledger (signer.relayer_accounts and sponsored_transactions) that
 * runs under an account's lock: which account to send from, its next nonce, and its rows by nonce.
 */
export class RelayerLedger {
  constructor(private readonly dataSource: DataSource) {}

  private get accounts(): string {
    return `"${schemaOf(this.dataSource)}"."relayer_accounts"`;
  }

  private get transactions(): string {
    return `"${schemaOf(this.dataSource)}"."sponsored_transactions"`;
  }

  /**
   * The least recently used free account among `addresses`; when every one is locked by another
   * sender, waits for one of them (chosen at random, so waiters spread over the accounts).
   */
  async lockLeastUsed(
    manager: EntityManager,
    chain: string,
    addresses: string[],
  ): Promise<LockedAccount | undefined> {
    if (addresses.length === 0) return undefined;
    const free = (await manager.query(
      `SELECT "address", "next_nonce" FROM ${this.accounts} WHERE "chain" = $1 AND "address" = ANY($2::text[])
        ORDER BY "last_used_at" ASC NULLS FIRST LIMIT 1 FOR UPDATE SKIP LOCKED`,
      [chain, addresses],
    )) as LockedAccount[];
    if (free.length > 0) return free[0];
    const waited = (await manager.query(
      `SELECT "address", "next_nonce" FROM ${this.accounts} WHERE "chain" = $1 AND "address" = ANY($2::text[]) ORDER BY random() LIMIT 1 FOR UPDATE`,
      [chain, addresses],
    )) as LockedAccount[];
    return waited[0];
  }

  /** One account, locked; `skipLocked`: undefined at once when a sender holds it. */
  async lock(
    manager: EntityManager,
    chain: string,
    address: string,
    skipLocked: boolean,
  ): Promise<LockedAccount | undefined> {
    const rows = (await manager.query(
      `SELECT "address", "next_nonce" FROM ${this.accounts} WHERE "chain" = $1 AND "address" = $2
        FOR UPDATE${skipLocked ? ' SKIP LOCKED' : ''}`,
      [chain, address],
    )) as LockedAccount[];
    return rows[0];
  }

  /** Inserts the chain's relayer rows that do not exist yet. */
  async ensureAccounts(chain: string, addresses: string[]): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO ${this.accounts} ("chain", "address", "next_nonce")
       SELECT $1, unnest($2::text[]), 0 ON CONFLICT DO NOTHING`,
      [chain, addresses],
    );
  }

  /** `used`: a transaction was just sent from it (least-recently-used order). */
  async setNextNonce(
    manager: EntityManager,
    chain: string,
    address: string,
    nextNonce: number,
    used: boolean,
  ): Promise<void> {
    await manager.query(
      `UPDATE ${this.accounts} SET "next_nonce" = $3, ${used ? `"last_used_at" = now(), ` : ''}"updated_at" = now()
        WHERE "chain" = $1 AND "address" = $2`,
      [chain, address, nextNonce],
    );
  }

  /** The relayer's pending rows from `fromNonce` up, by nonce. */
  pendingFrom(
    manager: EntityManager,
    chain: string,
    relayer: string,
    fromNonce: number,
  ): Promise<SponsoredTransactionEntity[]> {
    return manager
      .createQueryBuilder(SponsoredTransactionEntity, 't')
      .where(`t.chain = :chain AND t.relayer = :relayer AND t.status = 'pending' AND t.nonce >= :fromNonce`, {
        chain,
        relayer,
        fromNonce,
      })
      .orderBy('t.nonce', 'ASC')
      .getMany();
  }

  /**
   * The relayer's rows recorded as mined whose nonce the chain has not used (`fromNonce` is the
   * chain's mined count), or mined in a block at or after `fromBlock` (within reorg depth).
   */
  minedToVerify(
    manager: EntityManager,
    chain: string,
    relayer: string,
    fromNonce: number,
    fromBlock: number,
  ): Promise<SponsoredTransactionEntity[]> {
    return manager
      .createQueryBuilder(SponsoredTransactionEntity, 't')
      .where(
        `t.chain = :chain AND t.relayer = :relayer AND t.status IN ('confirmed', 'failed', 'cancelled')
          AND (t.nonce >= :fromNonce OR t.block_number >= :fromBlock)`,
        { chain, relayer, fromNonce, fromBlock },
      )
      .orderBy('t.nonce', 'ASC')
      .limit(MINED_VERIFIED_PER_PASS)
      .getMany();
  }

  /** A mined row the chain no longer has, whose nonce is free again: followed as pending from now on. */
  async repend(manager: EntityManager, id: string, nowMs: number): Promise<boolean> {
    const result = await manager
      .createQueryBuilder()
      .update(SponsoredTransactionEntity)
      .set({
        status: 'pending',
        ...UNMINED,
        failureCode: null,
        failureReason: null,
        lastSentAtMs: nowMs,
        nextCheckAtMs: nowMs,
      })
      .where(`id = :id AND status IN ('confirmed', 'failed', 'cancelled')`, { id })
      .execute();
    return Boolean(result.affected);
  }

  /** A mined row the chain no longer has, whose nonce another transaction took: nothing was paid. */
  async markLost(manager: EntityManager, id: string, reason: string): Promise<boolean> {
    const result = await manager
      .createQueryBuilder()
      .update(SponsoredTransactionEntity)
      .set({
        status: 'lost',
        ...UNMINED,
        costWei: 0n,
        failureCode: 'RELAY_LOST',
        failureReason: reason,
        nextCheckAtMs: null,
      })
      .where(`id = :id AND status IN ('confirmed', 'failed', 'cancelled')`, { id })
      .execute();
    return Boolean(result.affected);
  }

  /** The row now at a new nonce, its earlier attempts keeping the nonce they were signed with. */
  async reissued(
    manager: EntityManager,
    row: SponsoredTransactionEntity,
    nonce: number,
    attempt: RelayAttempt,
    fees: { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint },
  ): Promise<boolean> {
    const attempts = [...row.attempts.map((a) => ({ ...a, nonce: a.nonce ?? evmNonceOf(row) })), attempt];
    const result = await manager.update(
      SponsoredTransactionEntity,
      { id: row.id, status: 'pending', nonce: evmNonceOf(row) },
      {
        nonce,
        attempts,
        txHash: attempt.hash,
        ...fees,
        lastSentAtMs: attempt.sentAtMs,
        nextCheckAtMs: attempt.sentAtMs,
      },
    );
    return Boolean(result.affected);
  }
}

/** How many mined rows one reconciliation verifies against the chain (the rest on later passes). */
const MINED_VERIFIED_PER_PASS = 200;

const UNMINED = {
  gasUsed: null,
  effectiveGasPrice: null,
  costWei: null,
  blockNumber: null,
  minedAtMs: null,
} as const;
