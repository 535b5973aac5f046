import { Module } from '@nestjs/common';
import { ChainsModule } from '../chains/chains.module';
import { SigningEventsConsumer } from './signing-events.consumer';
import { SwapBuilder } from './swap-builder.service';
import { SwapCommandsConsumer } from './swap-commands.consumer';
import { SwapExpirySweeper } from './swap-expiry.sweeper';
import { SwapProgress } from './swap-progress.service';
import { SwapRequestsController } from './swap-requests.controller';
import { SwapStore, TypeOrmSwapStore } from './swap-store';

/**
 * Swaps from build to completion: build commands and requests, signer-surface's events, and the
 * sweeper of abandoned swaps, over the planner's tables (SwapStore) and the chains (SWAP_CHAINS).
 */
@Module({
  imports: [ChainsModule],
  controllers: [SwapCommandsConsumer, SwapRequestsController, SigningEventsConsumer],
  providers: [
    TypeOrmSwapStore,
    { provide: SwapStore, useExisting: TypeOrmSwapStore },
    SwapBuilder,
    SwapProgress,
    SwapExpirySweeper,
  ],
})
export class SwapsModule {}
