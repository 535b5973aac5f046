import { Module } from '@nestjs/common';
import { STARTUP_WARMUPS, StartupWarmup } from '@swapgw/runtime';
import { ChainsModule } from './chains/chains.module';
import { SWAP_CHAINS, SwapChains } from './chains/swap-chains';

/**
 * What execution-planner loads before it reports ready (bootstrapKafkaService runs STARTUP_WARMUPS
 * before the consumer starts): the clients its plans read balances and allowances through, each
 * EVM chain's head and Multicall3 presence (SwapChains.startupWarmup).
 */
@Module({
  imports: [ChainsModule],
  providers: [
    {
      provide: STARTUP_WARMUPS,
      inject: [SWAP_CHAINS],
      useFactory: (chains: SwapChains): StartupWarmup[] =>
        chains.startupWarmup ? [chains.startupWarmup()] : [],
    },
  ],
  exports: [STARTUP_WARMUPS],
})
export class ExecutionPlannerWarmupModule {}
