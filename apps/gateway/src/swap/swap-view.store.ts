import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { SWAP_VIEW_CHANNEL } from './swap-view-changes';
import { SwapViewEntity } from './swap-view.entity';

type ViewChange = Partial<Omit<SwapViewEntity, 'swapId' | 'owner' | 'createdAtMs'>>;

/**
 * Reads and writes of gateway.swap_views. Every write NOTIFYs SWAP_VIEW_CHANNEL with the swapId
 * (delivered when its transaction commits), which wakes the builds waiting on that swap.
 */
@Injectable()
export class SwapViewStore {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The swap of this owner, or null (unknown, or another owner's: both read as "not found"). */
  async findOwned(swapId: string, owner: string): Promise<SwapViewEntity | null> {
    if (!UUID.test(swapId)) return null;
    return this.dataSource.getRepository(SwapViewEntity).findOneBy({ swapId, owner });
  }

  /**
   * Makes sure a freshly built swap has a row before the build answers, so that a poll right after
   * a 202 finds it even when swap.created is not projected yet. Never overwrites a projected row.
   */
  async ensureCreated(swapId: string, owner: string, status: string, stepTotal: number | null, nowMs: number, manager?: EntityManager): Promise<void> {
    const writer = manager ?? this.dataSource.manager;
    await writer.query(
      `INSERT INTO "gateway"."swap_views" ("swap_id", "owner", "status", "step_current", "step_total", "created_at_ms", "updated_at_ms")
       VALUES ($1, $2, $3, 1, $4, $5, $5) ON CONFLICT ("swap_id") DO NOTHING`,
      [swapId, owner, status, stepTotal, nowMs],
    );
    await notifyChanged(writer, swapId);
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
    await this.dataSource.query(
      `UPDATE "gateway"."swap_views" SET "status" = 'submitted', "payload" = NULL, "expires_at_ms" = NULL, "last_tx_hash" = $3, "updated_at_ms" = $4
       WHERE "swap_id" = $1 AND "step_current" = $2 AND "status" = 'awaiting_signature'`,
      [swapId, stepCurrent, txHash, nowMs],
    );
  }
}

const notifyChanged = (writer: EntityManager, swapId: string): Promise<unknown> => writer.query(`SELECT pg_notify($1, $2)`, [SWAP_VIEW_CHANNEL, swapId]);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
