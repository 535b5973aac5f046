import { Inject, Injectable } from '@nestjs/common';
import { schemaOf } from '@swapgw/messaging';
import { DataSource, type EntityManager } from 'typeorm';
import { RelayerAccountEntity } from './relayer-account.entity';
import { RELAYING_DATA_SOURCE } from './relaying-database';

/** A relayer account's row, locked FOR UPDATE by the caller's transaction. */
export interface LockedAccount {
  address: string;
  next_nonce: string;
}

/**
 * Statements on the accounts that pay for sponsored transactions (`relayer_accounts`): which relayer
 * to send from and its lock, its next nonce, and the rows the accounts need. (Their transactions'
 * rows are SponsoredTransactionsRepository's.)
 */
@Injectable()
export class RelayerAccountsRepository {
  constructor(@Inject(RELAYING_DATA_SOURCE) private readonly dataSource: DataSource) {}

  private get accounts(): string {
    return `"${schemaOf(this.dataSource)}"."relayer_accounts"`;
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

  /**
   * The row of a fee-paying account (a Solana fee payer, a Bitcoin fee wallet) the ledger's foreign
   * key needs, when it does not exist yet (its nonce is never used).
   */
  async ensureAccount(manager: EntityManager, chain: string, address: string): Promise<void> {
    await manager
      .createQueryBuilder()
      .insert()
      .into(RelayerAccountEntity)
      .values({ chain, address, nextNonce: 0 })
      .orIgnore()
      .execute();
  }
}
