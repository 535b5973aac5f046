import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Clock, nameBasedUuid, timeOrderedUuid } from '@swapgw/runtime';
import {
  CancelLimitOrderRequest,
  CodedError,
  CreateLimitOrderRequest,
  ErrorCodes,
  GetLimitOrderRequest,
  LIMIT_ORDER_LIST_DEFAULT,
  LimitOrderCanceled,
  LimitOrderCreated,
  LimitOrderEventTypes,
  LimitOrderList,
  LimitOrderReplaced,
  LimitOrderTerms,
  LimitOrderView,
  ListLimitOrdersRequest,
  ReplaceLimitOrderRequest,
} from '@swapgw/contracts';
import { IdempotencyRepository } from '../idempotency/idempotency.repository';
import { searchFillOrKill, searchImmediateOrCancel } from './fill-search';
import {
  CatalogDirectory,
  MarketQuoter,
  SwapBuildCommands,
  SwapBuildOrder,
} from '../upstream/upstream.ports';
import { LimitOrderHistory } from './limit-order-history';
import { LimitOrderServiceConfig } from '../config/limit-order-service.config';
import { LimitOrderEntity } from './limit-order.entity';
import { LimitOrderRepository } from './limit-order.repository';
import { toLimitOrderView } from './limit-order.view';
import { checkOrderTerms } from './order-terms';
import { resolveExpiry } from './time-in-force';

const newLimitOrderId = (nowMs: number): string => `lo_${timeOrderedUuid(nowMs)}`;

/** UUID namespace of the swaps triggered orders build (random, fixed forever). */
const TRIGGERED_SWAP_NAMESPACE = 'b3f1c2d4-7a8e-4f60-9c1d-5e2a7b9f0c13';

/**
 * The swap a triggered order builds gets an id derived from what makes the trigger unique, so a
 * retry (same Idempotency-Key, or the watcher after a crash) asks execution-planner for the same
 * swap, which `swap.build` treats idempotently. Formatted as a UUID, as swap.build requires.
 */
export function swapIdFor(seed: string): string {
  return nameBasedUuid(TRIGGERED_SWAP_NAMESPACE, seed);
}

@Injectable()
export class LimitOrdersService {
  constructor(
    private readonly orders: LimitOrderRepository,
    private readonly history: LimitOrderHistory,
    private readonly idempotency: IdempotencyRepository,
    private readonly catalog: CatalogDirectory,
    private readonly quoter: MarketQuoter,
    private readonly swapBuilds: SwapBuildCommands,
    private readonly config: LimitOrderServiceConfig,
    private readonly clock: Clock,
  ) {}

  async create(request: CreateLimitOrderRequest): Promise<LimitOrderCreated> {
    const now = this.clock.nowMs();
    const { owner, idempotencyKey, ...fingerprinted } = request;
    const scope = { owner, operation: 'create', key: idempotencyKey, request: fingerprinted };
    const replay = await this.idempotency.peek<LimitOrderCreated>(this.orders.manager, scope);
    if (replay) return replay.response;

    const order = await this.newOrder(request, now);
    order.route = request.route ?? null;
    order.routeKey = request.routeKey ?? null;
    const outcome = await this.orders.transaction((manager) =>
      this.idempotency.run(manager, scope, now, async () => {
        await this.placeOrder(manager, order, `create|${owner}|${idempotencyKey}`);
        return createdResponse(order);
      }),
    );
    return outcome.response;
  }

  async replace(request: ReplaceLimitOrderRequest): Promise<LimitOrderReplaced> {
    const now = this.clock.nowMs();
    const { owner, idempotencyKey, ...fingerprinted } = request;
    const scope = { owner, operation: 'replace', key: idempotencyKey, request: fingerprinted };
    const replay = await this.idempotency.peek<LimitOrderReplaced>(this.orders.manager, scope);
    if (replay) return replay.response;

    const replacement = await this.newOrder(request, now);
    replacement.replacesId = request.limitOrderId;
    const outcome = await this.orders.transaction((manager) =>
      this.idempotency.run(manager, scope, now, async () => {
        // Lock the old order first: a concurrent cancel, replace, trigger or expiry waits for us
        // (or we for it) and then sees the committed status.
        const old = await this.lockOwned(manager, request.limitOrderId, owner);
        if (old.status !== 'open') {
          throw new CodedError(
            ErrorCodes.LIMIT_ORDER_NOT_REPLACEABLE,
            `Limit order is ${old.status}, not open`,
            {
              limitOrderId: old.id,
              status: old.status,
            },
          );
        }
        await this.placeOrder(manager, replacement, `replace|${owner}|${idempotencyKey}`);
        old.status = 'canceled';
        old.cancelReason = 'replaced';
        old.replacedById = replacement.id;
        old.updatedAtMs = now;
        old.version += 1;
        await this.orders.update(manager, old.id, {
          status: old.status,
          cancelReason: old.cancelReason,
          replacedById: old.replacedById,
          updatedAtMs: now,
          version: old.version,
        });
        await this.history.record(manager, LimitOrderEventTypes.canceled, old);
        await this.history.record(manager, LimitOrderEventTypes.replaced, old);
        return { ...createdResponse(replacement), replacesLimitOrderId: old.id };
      }),
    );
    return outcome.response;
  }

  async cancel(request: CancelLimitOrderRequest): Promise<LimitOrderCanceled> {
    const now = this.clock.nowMs();
    const { owner, idempotencyKey, ...fingerprinted } = request;
    const scope = { owner, operation: 'cancel', key: idempotencyKey, request: fingerprinted };
    const outcome = await this.orders.transaction((manager) =>
      this.idempotency.run(manager, scope, now, async () => {
        const order = await this.lockOwned(manager, request.limitOrderId, owner);
        // Canceling a canceled order (another key, a second client) answers what is true: canceled.
        if (order.status === 'canceled') return { limitOrderId: order.id, status: order.status };
        if (order.status !== 'open') {
          throw new CodedError(
            ErrorCodes.LIMIT_ORDER_NOT_REPLACEABLE,
            `Limit order is ${order.status}, not open`,
            {
              limitOrderId: order.id,
              status: order.status,
            },
          );
        }
        order.status = 'canceled';
        order.cancelReason = request.reason ?? null;
        order.updatedAtMs = now;
        order.version += 1;
        await this.orders.update(manager, order.id, {
          status: order.status,
          cancelReason: order.cancelReason,
          updatedAtMs: now,
          version: order.version,
        });
        await this.history.record(manager, LimitOrderEventTypes.canceled, order);
        return { limitOrderId: order.id, status: order.status };
      }),
    );
    return outcome.response;
  }

  async get(request: GetLimitOrderRequest): Promise<LimitOrderView> {
    const order = await this.orders.find(request.limitOrderId);
    return toLimitOrderView(assertOwned(order, request.limitOrderId, request.owner));
  }

  async list(request: ListLimitOrdersRequest): Promise<LimitOrderList> {
    const orders = await this.orders.listOwned(
      request.owner,
      request.status,
      request.limit ?? LIMIT_ORDER_LIST_DEFAULT,
    );
    return { limitOrders: orders.map(toLimitOrderView) };
  }

  /**
   * Validates terms into an unsaved order row (400s come from here): expiry and time in force,
   * then the checks POST /quote applies to the same terms (checkOrderTerms).
   */
  private async newOrder(terms: LimitOrderTerms, now: number): Promise<LimitOrderEntity> {
    const { timeInForce, expiresAtMs } = resolveExpiry(terms, now);
    if ((timeInForce === 'IOC' || timeInForce === 'FOK') && !terms.recipient) {
      // IOC and FOK build the swap at creation, for a wallet to sign: recipient is that wallet.
      throw new CodedError(
        ErrorCodes.VALIDATION_FAILED,
        `${timeInForce} orders need recipient, the wallet that signs`,
        {
          fields: { recipient: ['required for IOC and FOK'] },
        },
      );
    }
    const { tokenIn, tokenOut, amountBase, minAmountOutBase } = await checkOrderTerms(terms, this.catalog);

    const order = new LimitOrderEntity();
    Object.assign(order, {
      id: newLimitOrderId(now),
      owner: terms.owner,
      status: 'open',
      timeInForce,
      fromChain: terms.fromChain,
      toChain: terms.toChain,
      tokenIn: tokenIn.symbol,
      tokenOut: tokenOut.symbol,
      tokenInDecimals: tokenIn.decimals,
      tokenOutDecimals: tokenOut.decimals,
      amount: terms.amount,
      amountBase: amountBase.toString(),
      minAmountOut: terms.minAmountOut,
      minAmountOutBase: minAmountOutBase.toString(),
      filledAmountBase: null,
      expiresAtMs,
      createdAtMs: now,
      updatedAtMs: now,
      nextCheckAtMs: now,
      network: terms.network ?? null,
      slippageBps: terms.slippageBps ?? null,
      recipient: terms.recipient ?? null,
      route: null,
      routeKey: null,
      swapId: null,
      cancelReason: null,
      failedChecks: 0,
      failureCode: null,
      failureMessage: null,
      replacesId: null,
      replacedById: null,
      version: 1,
    } satisfies Partial<LimitOrderEntity>);
    return order;
  }

  /**
   * Inserts a new order with its events. IOC and FOK are checked here, once, inside the caller's
   * transaction: the idempotency record already holds the key, so a concurrent duplicate waits
   * instead of quoting and building a second swap.
   */
  private async placeOrder(
    manager: EntityManager,
    order: LimitOrderEntity,
    triggerSeed: string,
  ): Promise<void> {
    const created = { ...order, status: 'open', version: 1 } as LimitOrderEntity;
    let swapBuild: SwapBuildOrder | null = null;
    if (order.timeInForce === 'IOC' || order.timeInForce === 'FOK') {
      swapBuild = await this.fillAtCreation(order, triggerSeed);
      order.version = 2;
    }
    await this.orders.insert(manager, order);
    if (swapBuild) await this.swapBuilds.enqueue(manager, swapBuild);
    await this.history.record(manager, LimitOrderEventTypes.created, created);
    if (order.status === 'triggered') {
      const partial = BigInt(order.filledAmountBase as string) < BigInt(order.amountBase);
      await this.history.record(
        manager,
        LimitOrderEventTypes.triggered,
        order,
        partial ? { remainderExpired: true } : {},
      );
    } else if (order.status === 'expired') {
      await this.history.record(manager, LimitOrderEventTypes.expired, order);
    }
  }

  /** Fills an IOC or FOK order now when the market meets its limit: the swap to build, or null (expired). */
  private async fillAtCreation(order: LimitOrderEntity, triggerSeed: string): Promise<SwapBuildOrder | null> {
    const search = order.timeInForce === 'FOK' ? searchFillOrKill : searchImmediateOrCancel;
    const fill = await search({
      amountIn: BigInt(order.amountBase),
      minAmountOut: BigInt(order.minAmountOutBase),
      maxQuotes: this.config.IOC_MAX_QUOTES,
      quote: (amountIn) => this.quoter.quote(order, amountIn),
    });
    if (!fill) {
      order.status = 'expired';
      order.cancelReason = 'limit not met at creation';
      return null;
    }
    const recipient = order.recipient as string;
    order.status = 'triggered';
    order.swapId = swapIdFor(triggerSeed);
    order.filledAmountBase = fill.amountIn.toString();
    return {
      swapId: order.swapId,
      owner: order.owner,
      quoteId: fill.quoteId,
      routeId: fill.routeId,
      plan: fill.plan,
      userAddress: recipient,
      recipient,
      acceptedAtMs: this.clock.nowMs(),
    };
  }

  private async lockOwned(manager: EntityManager, id: string, owner: string): Promise<LimitOrderEntity> {
    return assertOwned(await this.orders.lock(manager, id), id, owner);
  }
}

function assertOwned(order: LimitOrderEntity | null, id: string, owner: string): LimitOrderEntity {
  if (!order)
    throw new CodedError(ErrorCodes.LIMIT_ORDER_NOT_FOUND, 'Limit order not found', { limitOrderId: id });
  if (order.owner !== owner) {
    throw new CodedError(ErrorCodes.FORBIDDEN, 'The limit order belongs to another API key owner', {
      limitOrderId: id,
    });
  }
  return order;
}

function createdResponse(order: LimitOrderEntity): LimitOrderCreated {
  return {
    limitOrderId: order.id,
    status: order.status,
    expiresAtMs: order.expiresAtMs,
    minAmountOut: order.minAmountOut,
  };
}
