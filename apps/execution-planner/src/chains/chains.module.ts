import { Module, OnApplicationShutdown } from '@nestjs/common';
import { ChainRegistry } from '@swapgw/chains';
import { ExecutionPlannerConfig } from '../config/execution-planner.config';
import { RegistrySwapChains } from './registry-swap-chains';
import { SWAP_CHAINS } from './swap-chains';

/**
 * SWAP_CHAINS over the app's one ChainRegistry (the devnet manifest and the configured RPCs),
 * released at shutdown: ethers keeps timers for pending requests.
 */
@Module({
  providers: [
    { provide: ChainRegistry, inject: [ExecutionPlannerConfig], useFactory: ChainRegistry.fromConfig },
    {
      provide: SWAP_CHAINS,
      inject: [ChainRegistry],
      useFactory: (registry: ChainRegistry) => new RegistrySwapChains(registry),
    },
  ],
  exports: [SWAP_CHAINS, ChainRegistry],
})
export class ChainsModule implements OnApplicationShutdown {
  constructor(private readonly registry: ChainRegistry) {}

  onApplicationShutdown(): void {
    this.registry.destroy();
  }
}
