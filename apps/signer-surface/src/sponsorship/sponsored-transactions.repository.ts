import { Inject, Injectable } from '@nestjs/common';
import { schemaOf } from '@swapgw/messaging';
import { DataSource, type EntityManager, In } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { evmNonceOf } from './relayed-attempts';
import { RELAYING_DATA_SOURCE } from './relaying-database';
import { RelayAttempt, SponsoredTransactionEntity } from './sponsored-transaction.entity';

/**
 * Every statement on the sponsorship ledger (`sponsored_transactions`): recording a sent row,
 * claiming due rows under a lease, recording attempts, updating or settling a row only while it is
 * still pending (another instance may have settled it), a relayer's rows by nonce for the nonce
 * reconciler, what a key spent in a day, the Bitcoin rows a fee bump relates, and the rows the
 * signing flow looks up. (The paying accounts' rows are RelayerAccountsRepository's.)
 */
@Injectable()
export class SponsoredTransactionsRepository {
  constructor(@Inject(RELAYING_DATA_SOURCE) private readonly dataSource: DataSource) {}

  private get table(): string {
    return `"${schemaOf(this.dataSource)}"."sponsored_transactions"`;
  }

  /**
   * Claims up to `batchSize` pending rows due at `nowMs` (FOR UPDATE SKIP LOCKED, so several
   * instances share the work), leasing them until `leaseUntilMs`; answers them, most overdue first.
   */
  async claimDue(
    nowMs: number,
    leaseUntilMs: number,
    batchSize: number,
  ): Promise<SponsoredTransactionEntity[]> {
    const claimed = (await this.dataSource.query(
      `UPDATE ${this.table} SET "next_check_at_ms" = $2, "updated_at" = now()
        WHERE "id" IN (SELECT "id" FROM ${this.table} WHERE "status" = 'pending' AND "next_check_at_ms" <= $1
                        ORDER BY "next_check_at_ms" LIMIT $3 FOR UPDATE SKIP LOCKED)
        RETURNING "id"`,
      [nowMs, leaseUntilMs, batchSize],
    )) as [Array<{ id: string }>, number];
    const ids = claimed[0].map((r) => r.id);
    if (ids.length === 0) return [];
    return this.dataSource.manager.find(SponsoredTransactionEntity, {
      where: { id: In(ids) },
      order: { nextCheckAtMs: 'ASC' },
    });
  }

  /** Records the head at which the row's current attempt was first found stuck (its sentAtBlock). */
  async noteStuckAtBlock(row: SponsoredTransactionEntity, head: number): Promise<void> {
    await this.dataSource.query(
      `UPDATE ${this.table}
          SET "attempts" = jsonb_set("attempts", ARRAY[(jsonb_array_length("attempts") - 1)::text, 'sentAtBlock'], to_jsonb($2::bigint)),
              "updated_at" = now()
        WHERE "id" = $1 AND "status" = 'pending' AND jsonb_array_length("attempts") = $3`,
      [row.id, head, row.attempts.length],
    );
  }

  /** Appends an attempt to a pending row; false when the row is no longer pending. */
  async appendAttempt(id: string, attempt: RelayAttempt): Promise<boolean> {
    const recorded = await this.dataSource.query(
      `UPDATE ${this.table} SET "attempts" = "attempts" || $2::jsonb, "updated_at" = now()
        WHERE "id" = $1 AND "status" = 'pending' RETURNING "id"`,
      [id, JSON.stringify([attempt])],
    );
    return (recorded as [unknown[], number])[0].length > 0;
  }

  /** Per chain with pending rows: the age of the oldest (seconds) and how many are pending. */
  async pendingByChain(): Promise<Array<{ chain: string; seconds: number; count: number }>> {
    return (await this.dataSource.query(
      `SELECT "chain", EXTRACT(EPOCH FROM now() - min("created_at"))::float8 AS "seconds", count(*)::int AS "count"
         FROM ${this.table} WHERE "status" = 'pending' GROUP BY "chain"`,
    )) as Array<{ chain: string; seconds: number; count: number }>;
  }

  /** Changes a row while it is pending. */
  async update(id: string, changes: Partial<SponsoredTransactionEntity>): Promise<void> {
    await this.dataSource.manager.update(SponsoredTransactionEntity, { id, status: 'pending' }, changes);
  }

  /** Ends a pending row with `changes` (its final status among them); false when it was no longer pending. */
  async settle(id: string, changes: Partial<SponsoredTransactionEntity>): Promise<boolean> {
    const result = await this.dataSource.manager.update(
      SponsoredTransactionEntity,
      { id, status: 'pending' },
      changes,
    );
    return Boolean(result.affected);
  }

  /**
   * What `owner` spent (or holds in pending rows) on `chain` among the rows created in
   * [startMs, endMs): mined rows at their cost, pending ones at the most they can still cost (gas
   * limit × fee ceiling + value), dropped and lost ones at nothing.
   */
  async spentBetween(
    owner: string,
    chain: string,
    startMs: number,
    endMs: number,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<bigint> {
    const [row] = (await manager.query(
      `SELECT COALESCE(SUM(CASE "status"
                WHEN 'pending' THEN "gas_limit" * COALESCE("max_fee_ceiling", "max_fee_per_gas") + "value"
                ELSE COALESCE("cost_wei", 0) END), 0)::text AS "spent"
         FROM ${this.table}
        WHERE "owner" = $1 AND "chain" = $2 AND "created_at" >= $3 AND "created_at" < $4`,
      [owner, chain, new Date(startMs), new Date(endMs)],
    )) as Array<{ spent: string }>;
    return BigInt(row.spent);
  }

  /** The ledger's row of the user's Bitcoin transaction `txid` on `chain`, if any. */
  bitcoinTransactionOf(chain: string, txid: string): Promise<SponsoredTransactionEntity | null> {
    return this.dataSource.manager.findOneBy(SponsoredTransactionEntity, {
      chain,
      purpose: 'bitcoin-transaction',
      txHash: txid,
    });
  }

  /** The step's pending Bitcoin fee-bump rows, newest first. */
  pendingFeeBumpsOf(chain: string, swapId: string, stepIndex: number): Promise<SponsoredTransactionEntity[]> {
    return this.dataSource.manager.find(SponsoredTransactionEntity, {
      where: { chain, purpose: 'bitcoin-fee-bump', swapId, stepIndex, status: 'pending' },
      order: { createdAt: 'DESC' },
    });
  }

  /** Writes a new ledger row (a transaction just sent, or paid for) in the caller's transaction. */
  async record(
    manager: EntityManager,
    row: QueryDeepPartialEntity<SponsoredTransactionEntity>,
  ): Promise<void> {
    await manager.insert(SponsoredTransactionEntity, row);
  }

  /** One row by id. */
  byId(
    id: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<SponsoredTransactionEntity | null> {
    return manager.findOne(SponsoredTransactionEntity, { where: { id } });
  }

  /** The latest row of a step and purpose. */
  latestOfStep(
    swapId: string,
    stepIndex: number,
    purpose: SponsoredTransactionEntity['purpose'],
    manager: EntityManager = this.dataSource.manager,
  ): Promise<SponsoredTransactionEntity | null> {
    return manager.findOne(SponsoredTransactionEntity, {
      where: { swapId, stepIndex, purpose },
      order: { createdAt: 'DESC' },
    });
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
