import { Controller } from '@nestjs/common';
import { Ctx, KafkaContext, MessagePattern, Payload } from '@nestjs/microservices';
import { SwapRequestTypes, SwapSigningRefreshRequest, Topics } from '@swapgw/contracts';
import { RequestResponder } from '@swapgw/messaging';
import { SwapProgress } from './swap-progress.service';

/**
 * Request-reply entry of the planner: `swap.requests` (gateway → planner), for what the caller
 * needs answered now. Builds are never asked this way: they are durable commands on swap.commands
 * (SwapCommandsConsumer), from the gateway and limit-order-service alike.
 */
@Controller()
export class SwapRequestsController {
  constructor(
    private readonly responder: RequestResponder,
    private readonly progress: SwapProgress,
  ) {}

  @MessagePattern(Topics.swapRequests)
  handle(@Payload() message: unknown, @Ctx() ctx: KafkaContext) {
    return this.responder.respond(message, ctx, {
      [SwapRequestTypes.refreshSigning]: {
        payload: SwapSigningRefreshRequest,
        handle: (request: SwapSigningRefreshRequest) =>
          this.progress.refreshSigning(request.swapId, request.owner),
      },
    });
  }
}
