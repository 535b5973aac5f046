import { Module } from '@nestjs/common';
import { ChainsModule } from '../chains/chains.module';
import { ExecutionPlannerConfig } from '../config/execution-planner.config';
import { PLANNER_OPTIONS, plannerOptionsOf } from '../config/planner.options';
import { SigningEventsConsumer } from './signing-events.consumer';
import { SwapBuilder } from './swap-builder.service';
import { SwapCommandsConsumer } from './swap-commands.consumer';
import { SwapExpirySweeper } from './swap-expiry.sweeper';
import { KafkaLegRepricer, LegRepricer, SwapPriceChecker } from './swap-price-checker';
import { SwapProgress } from './swap-progress.service';
import { SwapRequestsController } from './swap-requests.controller';
import { SwapStore, TypeOrmSwapStore } from './swap-store';

/**
 * Swaps from build to completion: build commands and requests, signer-surface's events, the
 * sweeper of abandoned swaps and the price checks of later legs (quote-service, request-reply), over the planner's tables (SwapStore) and the chains (SWAP_CHAINS).
 */
@Module({
  imports: [ChainsModule],
  controllers: [SwapCommandsConsumer, SwapRequestsController, SigningEventsConsumer],
  providers: [
    { provide: PLANNER_OPTIONS, inject: [ExecutionPlannerConfig], useFactory: plannerOptionsOf },
    TypeOrmSwapStore,
    { provide: SwapStore, useExisting: TypeOrmSwapStore },
    SwapBuilder,
    SwapProgress,
    SwapExpirySweeper,
    { provide: LegRepricer, useClass: KafkaLegRepricer },
    SwapPriceChecker,
  ],
})
export class SwapsModule {}
