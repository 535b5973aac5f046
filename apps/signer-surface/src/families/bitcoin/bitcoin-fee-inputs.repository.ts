import { Inject, Injectable } from '@nestjs/common';
import { schemaOf } from '@swapgw/messaging';
import { DataSource, type EntityManager } from 'typeorm';
import { RELAYING_DATA_SOURCE } from '../../sponsorship/relaying-database';

/** A step of a swap: who holds a fee input. */
export interface FeeInputStep {
  chain: string;
  swapId: string;
  stepIndex: number;
}

/** A UTXO of one of the service's Bitcoin fee wallets, held for one step. */
export interface BitcoinFeeInput {
  chain: string;
  txid: string;
  vout: number;
  value: bigint;
  /** The fee wallet it belongs to (P2WPKH on the chain's network). */
  address: string;
}

interface HoldRow {
  chain: string;
  txid: string;
  vout: number;
  value: string;
  address: string;
}

const inputOf = (row: HoldRow): BitcoinFeeInput => ({
  chain: row.chain,
  txid: row.txid,
  vout: row.vout,
  value: BigInt(row.value),
  address: row.address,
});

/**
 * The SQL of the fee wallets' holds (signer.bitcoin_fee_inputs): one row per UTXO of a fee wallet a
 * step held, keyed by its outpoint. A hold is live while `held_until_ms` is ahead and it is unspent;
 * once a transaction the service signed spends it (`spent_by_txid`), no step ever takes it again.
 * Every claim is one statement (INSERT … ON CONFLICT DO UPDATE … WHERE), so two instances racing
 * for a UTXO cannot both get it.
 */
@Injectable()
export class BitcoinFeeInputsRepository {
  constructor(@Inject(RELAYING_DATA_SOURCE) private readonly dataSource: DataSource) {}

  private get table(): string {
    return `"${schemaOf(this.dataSource)}"."bitcoin_fee_inputs"`;
  }

  /**
   * Runs `claim` in a transaction that holds the step's advisory lock: the same step asking twice at
   * once (a retried request) gets one hold, not two.
   */
  async forStep<T>(step: FeeInputStep, claim: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(async (manager) => {
      await manager.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [
        `bitcoin-fee-input:${step.chain}:${step.swapId}:${step.stepIndex}`,
      ]);
      return claim(manager);
    });
  }

  /** The step's live hold, if any. */
  async heldBy(
    step: FeeInputStep,
    nowMs: number,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<BitcoinFeeInput | null> {
    const rows = (await manager.query(
      `SELECT "chain", "txid", "vout", "value"::text AS "value", "address" FROM ${this.table}
        WHERE "chain" = $1 AND "swap_id" = $2 AND "step_index" = $3 AND "spent_by_txid" IS NULL
          AND "held_until_ms" > $4
        ORDER BY "created_at" DESC LIMIT 1`,
      [step.chain, step.swapId, step.stepIndex, nowMs],
    )) as HoldRow[];
    return rows[0] ? inputOf(rows[0]) : null;
  }

  /** Outpoints (`txid:vout`) of the chain no step may take now: spent, or held by a live hold. */
  async unavailable(chain: string, nowMs: number): Promise<Set<string>> {
    const rows = (await this.dataSource.query(
      `SELECT "txid", "vout" FROM ${this.table}
        WHERE "chain" = $1 AND ("spent_by_txid" IS NOT NULL OR "held_until_ms" > $2)`,
      [chain, nowMs],
    )) as Array<{ txid: string; vout: number }>;
    return new Set(rows.map((r) => `${r.txid}:${r.vout}`));
  }

  /**
   * Holds `input` for the step until `holdUntilMs` when it is free: never held, or its hold expired
   * unspent, or already the step's own (unspent). Answers whether the step holds it now.
   */
  async claim(
    manager: EntityManager,
    input: BitcoinFeeInput,
    step: FeeInputStep,
    holdUntilMs: number,
    nowMs: number,
  ): Promise<boolean> {
    const rows = (await manager.query(
      `INSERT INTO ${this.table} AS h
         ("chain", "txid", "vout", "value", "address", "swap_id", "step_index", "held_until_ms")
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
       ON CONFLICT ("chain", "txid", "vout") DO UPDATE
         SET "swap_id" = EXCLUDED."swap_id", "step_index" = EXCLUDED."step_index",
             "held_until_ms" = EXCLUDED."held_until_ms", "value" = EXCLUDED."value",
             "address" = EXCLUDED."address", "updated_at" = now()
       WHERE h."spent_by_txid" IS NULL
         AND (h."held_until_ms" <= $9 OR (h."swap_id" = EXCLUDED."swap_id" AND h."step_index" = EXCLUDED."step_index"))
       RETURNING "txid"`,
      [
        input.chain,
        input.txid,
        input.vout,
        input.value.toString(),
        input.address,
        step.swapId,
        step.stepIndex,
        holdUntilMs,
        nowMs,
      ],
    )) as unknown[];
    return rows.length > 0;
  }

  /** Ends the step's unspent holds (spent ones stay: their transaction may still be mined). */
  async release(step: FeeInputStep, manager: EntityManager = this.dataSource.manager): Promise<void> {
    await manager.query(
      `DELETE FROM ${this.table}
        WHERE "chain" = $1 AND "swap_id" = $2 AND "step_index" = $3 AND "spent_by_txid" IS NULL`,
      [step.chain, step.swapId, step.stepIndex],
    );
  }

  /**
   * Marks the step's hold of `outpoint` (of fee wallet `address`) spent by `txid`, in the caller's
   * transaction. False when the step does not hold it (another step took it after its hold expired,
   * or it never did); marking the same spend again is true.
   */
  async markSpent(
    manager: EntityManager,
    step: FeeInputStep,
    outpoint: { txid: string; vout: number },
    address: string,
    txid: string,
  ): Promise<boolean> {
    const rows = (await manager.query(
      `UPDATE ${this.table} SET "spent_by_txid" = $7, "updated_at" = now()
        WHERE "chain" = $1 AND "txid" = $2 AND "vout" = $3 AND "address" = $4
          AND "swap_id" = $5 AND "step_index" = $6
          AND ("spent_by_txid" IS NULL OR "spent_by_txid" = $7)
        RETURNING "txid"`,
      [step.chain, outpoint.txid, outpoint.vout, address, step.swapId, step.stepIndex, txid],
    )) as [unknown[], number];
    return rows[0].length > 0;
  }

  /** Until when the hold spent by `txid` was held (the step's payload expiry); null when none is. */
  async spentHoldUntil(chain: string, txid: string): Promise<number | null> {
    const rows = (await this.dataSource.query(
      `SELECT max("held_until_ms")::text AS "until" FROM ${this.table} WHERE "chain" = $1 AND "spent_by_txid" = $2`,
      [chain, txid],
    )) as Array<{ until: string | null }>;
    return rows[0]?.until ? Number(rows[0].until) : null;
  }

  /** Frees the inputs `txid` spent: the chain never took it, so its UTXOs are unspent again. */
  async releaseSpentBy(chain: string, txid: string): Promise<void> {
    await this.dataSource.query(`DELETE FROM ${this.table} WHERE "chain" = $1 AND "spent_by_txid" = $2`, [
      chain,
      txid,
    ]);
  }
}
