import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { SWAP_VIEW_CHANNEL, SwapViewChanges } from './swap-view-changes';
import { SwapViewEntity } from './swap-view.entity';

type ViewChange = Partial<Omit<SwapViewEntity, 'swapId' | 'owner' | 'createdAtMs'>>;

/**
 * Reads and writes of gateway.swap_views. Every write that changes a row NOTIFYs SWAP_VIEW_CHANNEL
 * with the swapId (delivered when its transaction commits), which wakes the builds waiting on that
 * swap and drops it from every instance's cache of views. Creating a row needs no notification:
 * nobody waits on, or caches, a row that does not exist yet.
 */
@Injectable()
export class SwapViewStore {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly changes: SwapViewChanges,
  ) {}

  /**
   * The swap of this owner, or null (unknown, or another owner's: both read as "not found").
   * Answered from the cache of views while the row has not changed since this instance read it.
   */
  async findOwned(swapId: string, owner: string): Promise<SwapViewEntity | null> {
    if (!UUID.test(swapId)) return null;
    const cache = this.changes.cache;
    const cached = cache.get(swapId, Date.now());
    if (cached) return cached.owner === owner ? cached : null;
    const read = cache.beginRead(swapId);
    let view: SwapViewEntity | null = null;
    try {
      view = await this.dataSource.getRepository(SwapViewEntity).findOneBy({ swapId });
    } finally {
      cache.finishRead(read, view, Date.now());
    }
    return view?.owner === owner ? view : null;
  }

  /**
   * Makes sure a freshly built swap has a row before the build answers, so that a poll right after
   * a 202 finds it even when swap.created is not projected yet. Never overwrites a projected row:
   * returns true when it created the row (then it holds exactly what was given), false when the
   * row was there already.
   */
  async ensureCreated(swapId: string, owner: string, status: string, stepTotal: number | null, nowMs: number, manager?: EntityManager): Promise<boolean> {
    const writer = manager ?? this.dataSource.manager;
    const inserted: unknown[] = await writer.query(
      `INSERT INTO "gateway"."swap_views" ("swap_id", "owner", "status", "step_current", "step_total", "created_at_ms", "updated_at_ms")
       VALUES ($1, $2, $3, 1, $4, $5, $5) ON CONFLICT ("swap_id") DO NOTHING RETURNING "swap_id"`,
      [swapId, owner, status, stepTotal, nowMs],
    );
    return inserted.length > 0;
  }

  /** Applies a projected change; returns false when the swap has no row (its creation was not seen). */
  async update(manager: EntityManager, swapId: string, change: ViewChange): Promise<boolean> {
    const result = await manager.getRepository(SwapViewEntity).update({ swapId }, change as never);
    const applied = (result.affected ?? 0) > 0;
    if (applied) await notifyChanged(manager, swapId);
    return applied;
  }

  /**
   * After the signer accepted a signed transaction: the payload of that step is spent. Guarded by
   * the step number so that it never hides the next step's payload if the projector got there first.
   */
  async markSubmitted(swapId: string, stepCurrent: number, txHash: string, nowMs: number): Promise<void> {
    // One statement: the update and its notification commit together.
    await this.dataSource.query(
      `WITH "submitted" AS (
         UPDATE "gateway"."swap_views" SET "status" = 'submitted', "payload" = NULL, "expires_at_ms" = NULL, "last_tx_hash" = $3, "updated_at_ms" = $4
         WHERE "swap_id" = $1 AND "step_current" = $2 AND "status" = 'awaiting_signature' RETURNING "swap_id")
       SELECT pg_notify($5, "swap_id"::text) FROM "submitted"`,
      [swapId, stepCurrent, txHash, nowMs, SWAP_VIEW_CHANNEL],
    );
    // This instance's next poll must not wait for the notification to come back.
    this.changes.cache.invalidate(swapId);
  }
}

const notifyChanged = (writer: EntityManager, swapId: string): Promise<unknown> => writer.query(`SELECT pg_notify($1, $2)`, [SWAP_VIEW_CHANNEL, swapId]);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
