import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { LimitOrderStatus } from '@swapgw/contracts';
import { LimitOrderEntity } from './limit-order.entity';

/**
 * Every statement on `limit_orders`: the order service, the trigger watcher and the expiry sweeper
 * call these instead of writing SQL. Writes take the caller's transaction (`transaction(work)`), in
 * which the order's events (LimitOrderHistory), outbox rows and idempotency record commit with it.
 */
@Injectable()
export class LimitOrderRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Runs `work` in one transaction. */
  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }

  /** The connection outside any transaction (reads that need no lock). */
  get manager(): EntityManager {
    return this.dataSource.manager;
  }

  find(id: string): Promise<LimitOrderEntity | null> {
    return this.dataSource.manager.findOne(LimitOrderEntity, { where: { id } });
  }

  /** The owner's orders (of one status, when given), newest first. */
  listOwned(owner: string, status: LimitOrderStatus | undefined, limit: number): Promise<LimitOrderEntity[]> {
    return this.dataSource.manager.find(LimitOrderEntity, {
      where: status ? { owner, status } : { owner },
      order: { createdAtMs: 'DESC', id: 'DESC' },
      take: limit,
    });
  }

  /** The order under its row lock (FOR UPDATE): changes of one order apply one at a time. */
  lock(manager: EntityManager, id: string): Promise<LimitOrderEntity | null> {
    return manager.findOne(LimitOrderEntity, { where: { id }, lock: { mode: 'pessimistic_write' } });
  }

  async insert(manager: EntityManager, order: LimitOrderEntity): Promise<void> {
    // The route snapshot is opaque JSON: TypeORM's deep-partial type cannot describe it.
    await manager.insert(LimitOrderEntity, order as never);
  }

  async update(
    manager: EntityManager,
    id: string,
    change: QueryDeepPartialEntity<LimitOrderEntity>,
  ): Promise<void> {
    await manager.update(LimitOrderEntity, { id }, change);
  }

  /** A check that quoted ends a run of refused ones (only while the order is open). */
  async resetFailedChecks(id: string): Promise<void> {
    await this.dataSource
      .createQueryBuilder()
      .update(LimitOrderEntity)
      .set({ failedChecks: 0 })
      .where('id = :id', { id })
      .andWhere(`status = 'open'`)
      .execute();
  }

  /**
   * Open orders due for a market check at `nowMs` and not expired, oldest check first, claimed
   * (FOR UPDATE SKIP LOCKED: several watchers share the work) and their next check pushed to
   * `nextCheckAtMs`.
   */
  async claimDueForCheck(
    manager: EntityManager,
    nowMs: number,
    limit: number,
    nextCheckAtMs: number,
  ): Promise<LimitOrderEntity[]> {
    const due = await manager
      .createQueryBuilder(LimitOrderEntity, 'o')
      .where(`o.status = 'open'`)
      .andWhere('o.next_check_at_ms <= :now', { now: nowMs })
      .andWhere('o.expires_at_ms > :now', { now: nowMs })
      .orderBy('o.next_check_at_ms', 'ASC')
      .limit(limit)
      .setLock('pessimistic_write')
      .setOnLocked('skip_locked')
      .getMany();
    if (due.length > 0) {
      await manager
        .createQueryBuilder()
        .update(LimitOrderEntity)
        .set({ nextCheckAtMs })
        .whereInIds(due.map((o) => o.id))
        .execute();
    }
    return due;
  }

  /** Open orders expired at `nowMs`, oldest first, locked (FOR UPDATE SKIP LOCKED: sweepers side by side). */
  lockDueForExpiry(manager: EntityManager, nowMs: number, limit: number): Promise<LimitOrderEntity[]> {
    return manager
      .createQueryBuilder(LimitOrderEntity, 'o')
      .where(`o.status = 'open'`)
      .andWhere('o.expires_at_ms <= :now', { now: nowMs })
      .orderBy('o.expires_at_ms', 'ASC')
      .limit(limit)
      .setLock('pessimistic_write')
      .setOnLocked('skip_locked')
      .getMany();
  }
}
