import { Logger, Module, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { ChainRegistry, verifyChainEndpointsAtBoot } from '@swapgw/chains';
import { SignerSurfaceConfig } from '../config/signer-surface.config';
import { SignerChains } from './signer-chains';

/**
 * The chains signer-surface signs and looks up on: the app's one registry, built from the validated
 * config (RPC_URL_*, ESPLORA_URL_BITCOIN, DEVNET_MANIFEST) and destroyed at shutdown, and
 * SignerChains' bounded clients on it.
 * Integration tests put their own ChainRegistry in its place. At boot every configured EVM RPC must
 * answer its chain's id (else the service refuses to start: it would sign for one network on
 * another's node); a contract of the catalog without code there is logged.
 */
@Module({
  providers: [
    { provide: ChainRegistry, inject: [SignerSurfaceConfig], useFactory: ChainRegistry.fromConfig },
    {
      provide: SignerChains,
      inject: [ChainRegistry, SignerSurfaceConfig],
      useFactory: (registry: ChainRegistry, config: SignerSurfaceConfig) =>
        new SignerChains(registry, config.RPC_TIMEOUT_MS),
    },
  ],
  exports: [SignerChains],
})
export class ChainsModule implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Chains');

  constructor(
    private readonly registry: ChainRegistry,
    private readonly config: SignerSurfaceConfig,
  ) {}

  onApplicationBootstrap(): Promise<void> {
    return verifyChainEndpointsAtBoot(
      this.registry,
      Math.min(this.config.RPC_TIMEOUT_MS, BOOT_CHECK_TIMEOUT_MS),
      (message) => this.logger.warn(message),
    );
  }

  onApplicationShutdown(): void {
    this.registry.destroy();
  }
}

/** The boot check waits at most this long for a chain (an RPC that is down must not hold the boot). */
const BOOT_CHECK_TIMEOUT_MS = 5000;
