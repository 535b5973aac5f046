import { Module } from '@nestjs/common';
import { ChainRegistry } from '@swapgw/chains';
import { ExecutionPlannerConfig } from '../config/execution-planner.config';
import { RegistrySwapChains } from './registry-swap-chains';
import { SWAP_CHAINS } from './swap-chains';

/** SWAP_CHAINS: the shared chain registry over the devnet manifest and the configured RPCs. */
@Module({
  providers: [
    {
      provide: SWAP_CHAINS,
      inject: [ExecutionPlannerConfig],
      useFactory: (config: ExecutionPlannerConfig) => {
        const environment = { ...process.env, DEVNET_MANIFEST: config.DEVNET_MANIFEST };
        return new RegistrySwapChains(ChainRegistry.fromEnvironment(environment));
      },
    },
  ],
  exports: [SWAP_CHAINS],
})
export class ChainsModule {}
