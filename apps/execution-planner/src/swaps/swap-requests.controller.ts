import { Controller } from '@nestjs/common';
import { Ctx, KafkaContext, MessagePattern, Payload } from '@nestjs/microservices';
import { SwapBuildRequest, SwapRequestTypes, SwapSigningRefreshRequest, Topics } from '@swapgw/contracts';
import { RequestResponder } from '@swapgw/messaging';
import { SwapBuilder } from './swap-builder.service';
import { SwapProgress } from './swap-progress.service';

/** Request-reply entry of the planner: `swap.requests` (gateway → planner). */
@Controller()
export class SwapRequestsController {
  constructor(
    private readonly responder: RequestResponder,
    private readonly builder: SwapBuilder,
    private readonly progress: SwapProgress,
  ) {}

  @MessagePattern(Topics.swapRequests)
  handle(@Payload() message: unknown, @Ctx() ctx: KafkaContext) {
    return this.responder.respond(message, ctx, {
      [SwapRequestTypes.build]: {
        payload: SwapBuildRequest,
        handle: (request: SwapBuildRequest) => this.builder.build(request),
      },
      [SwapRequestTypes.refreshSigning]: {
        payload: SwapSigningRefreshRequest,
        handle: (request: SwapSigningRefreshRequest) =>
          this.progress.refreshSigning(request.swapId, request.owner),
      },
    });
  }
}
