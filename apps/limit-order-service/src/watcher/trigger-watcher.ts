import { Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { LimitOrderEventTypes } from '@swapgw/contracts';
import { meetsLimit } from '../market/fill-search';
import { MarketQuoter, SwapBuilder } from '../market/market.ports';
import { LimitOrderHistory } from '../orders/limit-order-history';
import { LimitOrderEntity } from '../orders/limit-order.entity';
import { Clock, swapIdFor } from '../orders/limit-orders.service';

export abstract class WatcherSettings {
  abstract readonly intervalMs: number;
  abstract readonly batchSize: number;
}

/**
 * Re-quotes open GTC/GTD orders and triggers those whose limit is met for the whole amount.
 *
 * A round claims a batch of due orders (FOR UPDATE SKIP LOCKED) and pushes their next check out,
 * then quotes outside any transaction, so several instances share the work and a slow quote holds
 * no lock. When the limit is met and the order has a recipient, a swap is built for that wallet
 * (swapId derived from the order id: a retry after a crash builds the same swap); then the order
 * moves to triggered only if it is still open, under its row lock.
 */
@Injectable()
export class TriggerWatcher {
  private readonly logger = new Logger(TriggerWatcher.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly history: LimitOrderHistory,
    private readonly quoter: MarketQuoter,
    private readonly swaps: SwapBuilder,
    private readonly settings: WatcherSettings,
    private readonly clock: Clock,
  ) {}

  /** One round; returns the ids of the orders it triggered. */
  async watch(): Promise<string[]> {
    const claimed = await this.claimDue();
    const triggered: string[] = [];
    for (const order of claimed) {
      try {
        if (await this.check(order)) triggered.push(order.id);
      } catch (error) {
        // A quote or build failure leaves the order open: the next round tries again.
        this.logger.warn({ msg: 'limit order check failed', limitOrderId: order.id, error: (error as Error).message });
      }
    }
    return triggered;
  }

  private claimDue(): Promise<LimitOrderEntity[]> {
    const now = this.clock.nowMs();
    return this.dataSource.transaction(async (manager) => {
      const due = await manager
        .createQueryBuilder(LimitOrderEntity, 'o')
        .where(`o.status = 'open'`)
        .andWhere('o.next_check_at_ms <= :now', { now })
        .andWhere('o.expires_at_ms > :now', { now })
        .orderBy('o.next_check_at_ms', 'ASC')
        .limit(this.settings.batchSize)
        .setLock('pessimistic_write')
        .setOnLocked('skip_locked')
        .getMany();
      if (due.length > 0) {
        await manager
          .createQueryBuilder()
          .update(LimitOrderEntity)
          .set({ nextCheckAtMs: now + this.settings.intervalMs })
          .whereInIds(due.map((o) => o.id))
          .execute();
      }
      return due;
    });
  }

  private async check(order: LimitOrderEntity): Promise<boolean> {
    const amountIn = BigInt(order.amountBase);
    const quote = await this.quoter.quote(order, amountIn);
    if (!quote || !meetsLimit(quote, { amountIn, minAmountOut: BigInt(order.minAmountOutBase) })) return false;

    let swapId: string | null = null;
    if (order.recipient) {
      ({ swapId } = await this.swaps.build({
        swapId: swapIdFor(`trigger|${order.id}`),
        owner: order.owner,
        quoteId: quote.quoteId,
        routeId: quote.routeId,
        plan: quote.plan,
        userAddress: order.recipient,
        recipient: order.recipient,
      }));
    }
    return this.dataSource.transaction(async (manager) => {
      const current = await manager.findOne(LimitOrderEntity, { where: { id: order.id }, lock: { mode: 'pessimistic_write' } });
      // Canceled, replaced or expired while we quoted: the unsigned swap simply expires.
      if (!current || current.status !== 'open') return false;
      const now = this.clock.nowMs();
      current.status = 'triggered';
      current.swapId = swapId;
      current.filledAmountBase = current.amountBase;
      current.updatedAtMs = now;
      current.version += 1;
      await manager.update(
        LimitOrderEntity,
        { id: current.id },
        { status: 'triggered', swapId, filledAmountBase: current.amountBase, updatedAtMs: now, version: current.version },
      );
      await this.history.record(manager, LimitOrderEventTypes.triggered, current, {
        quoteId: quote.quoteId,
        routeId: quote.routeId,
        expectedAmountOut: quote.amountOut.toString(),
      });
      return true;
    });
  }
}
