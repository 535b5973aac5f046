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
 * swap.events, which the gateway projects and its build waits on.
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
          handle: (request: SwapBuildRequest, _, manager) => this.builder.buildCommand(request, tx(manager)),
        },
      }),
    );
  }
}
