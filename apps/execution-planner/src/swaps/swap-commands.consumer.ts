import { Controller } from '@nestjs/common';
import { Ctx, KafkaContext, Payload } from '@nestjs/microservices';
import { SwapBuildRequest, SwapCommandTypes, Topics } from '@swapgw/contracts';
import { IdempotentConsumer, TopicEvents } from '@swapgw/messaging';
import { SwapPlanner } from './swap-planner.service';
import { TypeOrmSwapRepository } from './swap.repository';

/**
 * `swap.commands` (gateway → planner): builds accepted by the gateway before any planning. The
 * verdict, a swap with its steps or a swap failed with the reason a synchronous build would have
 * answered, is written with the processed_events row in one transaction and told through
 * swap.events, which the gateway projects and its build waits on. A new swap, built or refused,
 * takes the fast path: planned before its transaction, then written with its claim in one
 * statement (buildAtOnce); a swap that exists (a replay) takes the consumer's transaction
 * (buildCommand), which tells a retry from a conflict.
 */
@Controller()
export class SwapCommandsConsumer {
  constructor(
    private readonly consumer: IdempotentConsumer,
    private readonly builder: SwapPlanner,
    private readonly swaps: TypeOrmSwapRepository,
  ) {}

  @TopicEvents(Topics.swapCommands)
  async onSwapCommand(@Payload() message: unknown, @Ctx() ctx: KafkaContext): Promise<void> {
    await this.swaps.withinConsumer((tx) =>
      this.consumer.consume(message, ctx, {
        [SwapCommandTypes.build]: {
          payload: SwapBuildRequest,
          applyAtOnce: (request: SwapBuildRequest, _, claim) => this.builder.buildAtOnce(request, claim),
          handle: (request: SwapBuildRequest, _, manager) => this.builder.buildCommand(request, tx(manager)),
        },
      }),
    );
  }
}
