import { Logger, Module, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { ChainRegistry, verifyChainEndpointsAtBoot } from '@swapgw/chains';
import { ChainFamilies } from '@swapgw/chains/families';
import { QuoteServiceConfig } from '../config/quote-service.config';

/**
 * The chains quote-service knows (the devnet manifest's and the real networks, with their RPC URLs).
 * One ChainRegistry for the whole app (its RPC providers are cached and shared by the catalog, the
 * quote providers and the gas oracle), released at shutdown: ethers keeps timers for pending requests.
 */
@Module({
  providers: [
    { provide: ChainRegistry, inject: [QuoteServiceConfig], useFactory: ChainRegistry.fromConfig },
    {
      provide: ChainFamilies,
      inject: [ChainRegistry, QuoteServiceConfig],
      useFactory: (registry: ChainRegistry, config: QuoteServiceConfig) =>
        new ChainFamilies(registry, config.RPC_TIMEOUT_MS, 'block-scoped'),
    },
  ],
  exports: [ChainRegistry, ChainFamilies],
})
export class ChainsModule implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Chains');

  constructor(
    private readonly registry: ChainRegistry,
    private readonly families: ChainFamilies,
    private readonly config: QuoteServiceConfig,
  ) {}

  /** Every configured EVM RPC must answer its chain's id; a catalog contract without code is logged. */
  onApplicationBootstrap(): Promise<void> {
    return verifyChainEndpointsAtBoot(this.registry, Math.min(this.config.RPC_TIMEOUT_MS, 5000), (message) =>
      this.logger.warn(message),
    );
  }

  onApplicationShutdown(): void {
    this.families.destroy();
    this.registry.destroy();
  }
}
