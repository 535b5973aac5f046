import { LimitOrderEventPayload, LimitOrderView } from '@swapgw/contracts';
import { LimitOrderEntity } from './limit-order.entity';
import { baseUnitsToAmount } from '@swapgw/chains';

export function toLimitOrderView(order: LimitOrderEntity): LimitOrderView {
  return {
    limitOrderId: order.id,
    status: order.status,
    timeInForce: order.timeInForce,
    createdAtMs: order.createdAtMs,
    updatedAtMs: order.updatedAtMs,
    expiresAtMs: order.expiresAtMs,
    minAmountOut: order.minAmountOut,
    fromChain: order.fromChain,
    toChain: order.toChain,
    tokenIn: order.tokenIn,
    tokenOut: order.tokenOut,
    amount: order.amount,
    filledAmount:
      order.filledAmountBase === null
        ? null
        : baseUnitsToAmount(BigInt(order.filledAmountBase), order.tokenInDecimals),
    network: order.network,
    slippageBps: order.slippageBps,
    recipient: order.recipient,
    routeKey: order.routeKey,
    route: order.route,
    swapId: order.swapId,
    cancelReason: order.cancelReason,
    failureCode: order.failureCode,
    failureMessage: order.failureMessage,
    replacesLimitOrderId: order.replacesId,
    replacedByLimitOrderId: order.replacedById,
  };
}

export function toEventPayload(order: LimitOrderEntity): LimitOrderEventPayload {
  const view = toLimitOrderView(order);
  return {
    limitOrderId: order.id,
    owner: order.owner,
    status: order.status,
    timeInForce: order.timeInForce,
    version: order.version,
    expiresAtMs: order.expiresAtMs,
    amount: order.amount,
    minAmountOut: order.minAmountOut,
    filledAmount: view.filledAmount,
    swapId: order.swapId,
    reason: order.cancelReason,
    failureCode: order.failureCode,
    failureMessage: order.failureMessage,
    replacesLimitOrderId: order.replacesId,
    replacedByLimitOrderId: order.replacedById,
  };
}
