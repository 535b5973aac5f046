import { Controller } from '@nestjs/common';
import { Ctx, KafkaContext, MessagePattern, Payload } from '@nestjs/microservices';
import {
  CancelLimitOrderRequest,
  CreateLimitOrderRequest,
  GetLimitOrderRequest,
  LimitOrderRequestTypes,
  ListLimitOrdersRequest,
  ReplaceLimitOrderRequest,
  Topics,
} from '@swapgw/contracts';
import { RequestResponder } from '@swapgw/messaging';
import { LimitOrdersService } from './limit-orders.service';

/** Answers `limit-order.requests`, the gateway's request-reply calls for the five endpoints. */
@Controller()
export class LimitOrderRequestsController {
  constructor(
    private readonly responder: RequestResponder,
    private readonly orders: LimitOrdersService,
  ) {}

  @MessagePattern(Topics.limitOrderRequests)
  handle(@Payload() message: unknown, @Ctx() ctx: KafkaContext) {
    return this.responder.respond(message, ctx, {
      [LimitOrderRequestTypes.create]: {
        payload: CreateLimitOrderRequest,
        handle: (payload: CreateLimitOrderRequest) => this.orders.create(payload),
      },
      [LimitOrderRequestTypes.get]: {
        payload: GetLimitOrderRequest,
        handle: (payload: GetLimitOrderRequest) => this.orders.get(payload),
      },
      [LimitOrderRequestTypes.cancel]: {
        payload: CancelLimitOrderRequest,
        handle: (payload: CancelLimitOrderRequest) => this.orders.cancel(payload),
      },
      [LimitOrderRequestTypes.replace]: {
        payload: ReplaceLimitOrderRequest,
        handle: (payload: ReplaceLimitOrderRequest) => this.orders.replace(payload),
      },
      [LimitOrderRequestTypes.list]: {
        payload: ListLimitOrdersRequest,
        handle: (payload: ListLimitOrdersRequest) => this.orders.list(payload),
      },
    });
  }
}
