import { Injectable, Logger } from '@nestjs/common';
import { LimitOrderEventTypes } from '@swapgw/contracts';
import { LimitOrderHistory } from '../orders/limit-order-history';
import { LimitOrderRepository } from '../orders/limit-order.repository';
import { Clock } from '@swapgw/runtime';

const BATCH = 100;

/**
 * Expires open GTC/GTD orders whose expiry has passed. Each batch is claimed with
 * FOR UPDATE SKIP LOCKED, so several instances sweep side by side without expiring an order twice,
 * and a cancel or replace holding the row lock is never overwritten.
 */
@Injectable()
export class ExpirySweeper {
  private readonly logger = new Logger(ExpirySweeper.name);

  constructor(
    private readonly orders: LimitOrderRepository,
    private readonly history: LimitOrderHistory,
    private readonly clock: Clock,
  ) {}

  /** Expires every order due now; returns how many. */
  async sweep(): Promise<number> {
    let total = 0;
    for (;;) {
      const expired = await this.sweepBatch();
      total += expired;
      if (expired < BATCH) return total;
    }
  }

  private sweepBatch(): Promise<number> {
    const now = this.clock.nowMs();
    return this.orders.transaction(async (manager) => {
      const due = await this.orders.lockDueForExpiry(manager, now, BATCH);
      for (const order of due) {
        order.status = 'expired';
        order.updatedAtMs = now;
        order.version += 1;
        await this.orders.update(manager, order.id, {
          status: 'expired',
          updatedAtMs: now,
          version: order.version,
        });
        await this.history.record(manager, LimitOrderEventTypes.expired, order);
      }
      if (due.length > 0) this.logger.log({ msg: 'expired limit orders', count: due.length });
      return due.length;
    });
  }
}
