import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { QuoteModule } from '../quote/quote.module';
import { IntegratorFeesCollectedRepository } from '../integrator-fees/integrator-fees-collected.repository';
import { SwapEventLogRepository } from '../swap-event-stream/swap-event-log.repository';
import { SwapController } from './swap.controller';
import { SwapsController } from './swaps.controller';
import { BuildPriceChecker } from './build-price-check';
import { BuildPreflight } from './build-preflight';
import { SwapService } from './swap.service';
import { SwapViewChanges } from './swap-view-changes';
import { SwapViewEntity } from './swap-view.entity';
import { SwapViewRepository } from './swap-view.repository';
import { SwapViewsProjector } from './swap-views.projector';
import { SigningPollEdge } from './signing-poll.edge';

/**
 * Swap execution over HTTP (build, signing poll, submit) and the swap.events projector that keeps
 * gateway.swap_views. Relies on the gateway core: ServiceClient, CommandPublisher, IdempotentConsumer
 * (group `gateway`) and the Kafka microservice createGatewayApp connects for @EventPattern
 * handlers; and on the served quotes of QuoteModule, from which builds are judged.
 */
@Module({
  imports: [TypeOrmModule.forFeature([SwapViewEntity]), QuoteModule],
  controllers: [SwapController, SwapsController, SwapViewsProjector],
  providers: [
    SwapService,
    BuildPriceChecker,
    BuildPreflight,
    SwapViewRepository,
    SwapViewChanges,
    SwapEventLogRepository,
    SigningPollEdge,
    IntegratorFeesCollectedRepository,
  ],
  // For the event streams (SwapEventStreamModule): the views, their change notifications and the event log.
  exports: [SwapViewRepository, SwapViewChanges, SwapEventLogRepository],
})
export class SwapModule {}
