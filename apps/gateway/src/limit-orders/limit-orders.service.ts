import { Injectable } from '@nestjs/common';
import {
  CancelLimitOrderRequest,
  CreateLimitOrderRequest,
  GetLimitOrderRequest,
  LimitOrderCanceled,
  LimitOrderCreated,
  LimitOrderList,
  LimitOrderReplaced,
  LimitOrderRequestTypes,
  LimitOrderView,
  ListLimitOrdersRequest,
  ReplaceLimitOrderRequest,
  Topics,
  CodedError,
  ErrorCodes,
} from '@swapgw/contracts';
import { ServiceClient } from '../messaging/service-client';
import { CancelLimitOrderDto } from './dto/cancel-limit-order.dto';
import { CreateLimitOrderDto, ReplaceLimitOrderDto } from './dto/limit-order-terms.dto';
import { ListLimitOrdersQuery } from './dto/list-limit-orders.query';

/**
 * The limit-order endpoints as request-reply calls to limit-order-service, which owns the orders,
 * their idempotency (the Idempotency-Key travels with the request) and owner isolation. Its error
 * codes (FORBIDDEN, LIMIT_ORDER_NOT_FOUND, LIMIT_ORDER_NOT_REPLACEABLE, PERSISTENCE_UNAVAILABLE...)
 * reach the client through the exception filter; no answer in time is 503.
 */
/**
 * Limit order ids are `lo_` + a time-ordered UUID (limit-order-service mints them); orders made
 * before it carry a lower-case ULID instead, and keep it.
 */
const LIMIT_ORDER_ID =
  /^lo_(?:[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}|[0-9a-z]{26})$/;

/** An id that cannot name an order is answered like an unknown one, without a round trip. */
function assertPossibleLimitOrderId(limitOrderId: string): void {
  if (!LIMIT_ORDER_ID.test(limitOrderId)) {
    throw new CodedError(ErrorCodes.LIMIT_ORDER_NOT_FOUND, 'No limit order has this id');
  }
}

@Injectable()
export class LimitOrdersService {
  constructor(private readonly services: ServiceClient) {}

  create(owner: string, idempotencyKey: string, body: CreateLimitOrderDto): Promise<LimitOrderCreated> {
    const request: CreateLimitOrderRequest = { ...body, owner, idempotencyKey };
    return this.services.call(Topics.limitOrderRequests, LimitOrderRequestTypes.create, owner, request);
  }

  get(owner: string, limitOrderId: string): Promise<LimitOrderView> {
    assertPossibleLimitOrderId(limitOrderId);
    const request: GetLimitOrderRequest = { owner, limitOrderId };
    return this.services.call(Topics.limitOrderRequests, LimitOrderRequestTypes.get, limitOrderId, request);
  }

  cancel(
    owner: string,
    idempotencyKey: string,
    limitOrderId: string,
    body: CancelLimitOrderDto | undefined,
  ): Promise<LimitOrderCanceled> {
    assertPossibleLimitOrderId(limitOrderId);
    const request: CancelLimitOrderRequest = {
      owner,
      idempotencyKey,
      limitOrderId,
      ...(body?.reason ? { reason: body.reason } : {}),
    };
    return this.services.call(
      Topics.limitOrderRequests,
      LimitOrderRequestTypes.cancel,
      limitOrderId,
      request,
    );
  }

  replace(
    owner: string,
    idempotencyKey: string,
    limitOrderId: string,
    body: ReplaceLimitOrderDto,
  ): Promise<LimitOrderReplaced> {
    assertPossibleLimitOrderId(limitOrderId);
    const request: ReplaceLimitOrderRequest = { ...body, owner, idempotencyKey, limitOrderId };
    return this.services.call(
      Topics.limitOrderRequests,
      LimitOrderRequestTypes.replace,
      limitOrderId,
      request,
    );
  }

  list(owner: string, query: ListLimitOrdersQuery): Promise<LimitOrderList> {
    const request: ListLimitOrdersRequest = { owner, ...query };
    return this.services.call(Topics.limitOrderRequests, LimitOrderRequestTypes.list, owner, request);
  }
}
