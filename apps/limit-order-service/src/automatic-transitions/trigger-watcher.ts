import { Injectable, Logger } from '@nestjs/common';
import { baseUnitsToAmount } from '@swapgw/chains';
import { LimitOrderEventTypes } from '@swapgw/contracts';
import { LimitOrderServiceConfig } from '../config/limit-order-service.config';
import { meetsLimit } from '../orders/fill-search';
import { MarketQuoter, SwapBuildCommands } from '../upstream/upstream.ports';
import { LimitOrderHistory } from '../orders/limit-order-history';
import { LimitOrderEntity } from '../orders/limit-order.entity';
import { LimitOrderRepository } from '../orders/limit-order.repository';
import { Clock } from '@swapgw/runtime';
import { swapIdFor } from '../orders/limit-orders.service';
import { afterRefusedCheck, CheckFailure, classifyCheckFailure } from './check-failures';
import { WatcherMetrics } from './watcher-metrics';

/**
 * Re-quotes open GTC/GTD orders and triggers those whose limit is met for the whole amount.
 *
 * A round claims a batch of due orders (FOR UPDATE SKIP LOCKED) and pushes their next check out,
 * then quotes outside any transaction, so several instances share the work and a slow quote holds
 * no lock. When the limit is met and the order has a recipient, a swap is built for that wallet
 * (swapId derived from the order id: a retry after a crash builds the same swap); then the order
 * moves to triggered only if it is still open, under its row lock.
 *
 * An order the watcher can no longer check does not stay open silently: a check refused with a 400
 * code (its token delisted, its chain removed...) counts, a check that quotes resets the count,
 * and at WATCH_MAX_FAILED_CHECKS refused checks in a row the order moves to `failed` with the code
 * and message of the last one, announced as `limit-order.failed`. Transient failures (timeouts,
 * outages) neither count nor reset (see check-failures.ts).
 */
@Injectable()
export class TriggerWatcher {
  private readonly logger = new Logger(TriggerWatcher.name);

  constructor(
    private readonly orders: LimitOrderRepository,
    private readonly history: LimitOrderHistory,
    private readonly quoter: MarketQuoter,
    private readonly swapBuilds: SwapBuildCommands,
    private readonly config: LimitOrderServiceConfig,
    private readonly clock: Clock,
  ) {}

  /** One round; returns the ids of the orders it triggered. */
  async watch(): Promise<string[]> {
    const claimed = await this.claimDue();
    const triggered: string[] = [];
    for (const order of claimed) {
      let checked = false;
      try {
        if (await this.check(order)) triggered.push(order.id);
        checked = true;
      } catch (error) {
        await this.checkFailed(order, classifyCheckFailure(error));
      }
      if (checked) {
        WatcherMetrics.checked('ok');
        if (order.failedChecks > 0) await this.resetFailedChecks(order.id);
      }
    }
    return triggered;
  }

  /** A refused check counts (and may fail the order); a transient one leaves the order as it is. */
  private async checkFailed(order: LimitOrderEntity, failure: CheckFailure): Promise<void> {
    WatcherMetrics.checked(failure.kind);
    const log = { limitOrderId: order.id, kind: failure.kind, code: failure.code, error: failure.message };
    if (failure.kind === 'transient') {
      // The next round tries again; the order's count is untouched.
      this.logger.warn({ msg: 'limit order check failed', ...log });
      return;
    }
    try {
      const outcome = await this.recordRefusedCheck(order.id, failure);
      if (outcome?.failed) {
        WatcherMetrics.orderFailed(failure.code);
        this.logger.warn({ msg: 'limit order failed', ...log, failedChecks: outcome.failedChecks });
      } else {
        this.logger.warn({ msg: 'limit order check failed', ...log, failedChecks: outcome?.failedChecks });
      }
    } catch (error) {
      this.logger.warn({ msg: 'limit order check failed', ...log, recordError: (error as Error).message });
    }
  }

  /**
   * Counts one refused check of a still-open order under its row lock, and fails the order when
   * the count reaches the bound: status, reason and event in one transaction, from `open` only, so
   * the order fails once whatever the instances and retries. Undefined when it is no longer open.
   */
  private recordRefusedCheck(
    id: string,
    failure: CheckFailure,
  ): Promise<{ failed: boolean; failedChecks: number } | undefined> {
    return this.orders.transaction(async (manager) => {
      const current = await this.orders.lock(manager, id);
      if (!current || current.status !== 'open') return undefined;
      const next = afterRefusedCheck(current.failedChecks, this.config.WATCH_MAX_FAILED_CHECKS);
      if (!next.fails) {
        await this.orders.update(manager, id, { failedChecks: next.failedChecks });
        return { failed: false, failedChecks: next.failedChecks };
      }
      const now = this.clock.nowMs();
      current.status = 'failed';
      current.failedChecks = next.failedChecks;
      current.failureCode = failure.code;
      current.failureMessage = failure.message;
      current.updatedAtMs = now;
      current.version += 1;
      await this.orders.update(manager, id, {
        status: 'failed',
        failedChecks: current.failedChecks,
        failureCode: current.failureCode,
        failureMessage: current.failureMessage,
        updatedAtMs: now,
        version: current.version,
      });
      await this.history.record(manager, LimitOrderEventTypes.failed, current, {
        failedChecks: current.failedChecks,
      });
      return { failed: true, failedChecks: next.failedChecks };
    });
  }

  /** A check that quoted ends a run of refused ones. */
  private async resetFailedChecks(id: string): Promise<void> {
    try {
      await this.orders.resetFailedChecks(id);
    } catch (error) {
      // The count stays as it was until a later check quotes again.
      this.logger.warn({
        msg: 'limit order check count not reset',
        limitOrderId: id,
        error: (error as Error).message,
      });
    }
  }

  private claimDue(): Promise<LimitOrderEntity[]> {
    const now = this.clock.nowMs();
    return this.orders.transaction((manager) =>
      this.orders.claimDueForCheck(
        manager,
        now,
        this.config.WATCH_BATCH_SIZE,
        now + this.config.WATCH_INTERVAL_MS,
      ),
    );
  }

  private async check(order: LimitOrderEntity): Promise<boolean> {
    const amountIn = BigInt(order.amountBase);
    const quote = await this.quoter.quote(order, amountIn);
    if (!quote || !meetsLimit(quote, { amountIn, minAmountOut: BigInt(order.minAmountOutBase) }))
      return false;

    // With a recipient, the order's swap is built by the planner from the command written with the trigger.
    const swapId = order.recipient ? swapIdFor(`trigger|${order.id}`) : null;
    return this.orders.transaction(async (manager) => {
      const current = await this.orders.lock(manager, order.id);
      // Canceled, replaced or expired while we quoted: the unsigned swap simply expires.
      if (!current || current.status !== 'open') return false;
      const now = this.clock.nowMs();
      current.status = 'triggered';
      current.swapId = swapId;
      current.filledAmountBase = current.amountBase;
      current.updatedAtMs = now;
      current.version += 1;
      await this.orders.update(manager, current.id, {
        status: 'triggered',
        swapId,
        filledAmountBase: current.amountBase,
        updatedAtMs: now,
        version: current.version,
      });
      if (swapId && current.recipient)
        await this.swapBuilds.enqueue(manager, {
          swapId,
          owner: current.owner,
          quoteId: quote.quoteId,
          routeId: quote.routeId,
          plan: quote.plan,
          userAddress: current.recipient,
          recipient: current.recipient,
          acceptedAtMs: now,
        });
      await this.history.record(manager, LimitOrderEventTypes.triggered, current, {
        quoteId: quote.quoteId,
        routeId: quote.routeId,
        // In units of tokenOut, as every amount of the public API (the event reaches webhooks).
        expectedAmountOut: baseUnitsToAmount(quote.amountOut, current.tokenOutDecimals),
      });
      return true;
    });
  }
}
