import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { SwapController } from './swap.controller';
import { SwapService } from './swap.service';
import { SwapViewEntity } from './swap-view.entity';
import { SwapViewStore } from './swap-view.store';
import { SwapViewsProjector } from './swap-views.projector';

/**
 * Swap execution over HTTP (build, signing poll, submit) and the swap.events projector that keeps
 * gateway.swap_views. Relies on the gateway core: ServiceClient, IdempotentConsumer (group
 * `gateway`) and the Kafka microservice createGatewayApp connects for @EventPattern handlers.
 */
@Module({
  imports: [TypeOrmModule.forFeature([SwapViewEntity])],
  controllers: [SwapController, SwapViewsProjector],
  providers: [SwapService, SwapViewStore],
})
export class SwapModule {}
