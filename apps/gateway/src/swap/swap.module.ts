import { Module } from '@nestjs/common';
import { SwapController } from './swap.controller';
import { SwapService } from './swap.service';
import { SwapViewStore } from './swap-view.store';
import { SwapViewsProjector } from './swap-views.projector';

/**
 * Swap execution over HTTP. Needs from the app: TypeORM on the gateway schema with SwapViewEntity
 * (SWAP_ENTITIES) and the swap_views migration, and MessagingModule with requestTopics
 * swap.requests + signing.requests and groupId `gateway` (RequestReplyClient, IdempotentConsumer),
 * plus the app's Kafka microservice for the projector's @EventPattern.
 */
@Module({
  controllers: [SwapController, SwapViewsProjector],
  providers: [SwapService, SwapViewStore],
})
export class SwapModule {}
