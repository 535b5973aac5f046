import { Module } from '@nestjs/common';
import { ChainRegistry } from '@swapgw/chains';
import { SignerSurfaceConfig } from '../config/signer-surface.config';
import { SignerChains } from './signer-chains';

/**
 * The chains signer-surface signs and looks up on: the shared registry, which reads RPC_URL_* and
 * ESPLORA_URL_BITCOIN itself (the config validated them first), and SignerChains' bounded clients on it.
 * Integration tests put their own ChainRegistry in its place.
 */
@Module({
  providers: [
    {
      provide: ChainRegistry,
      inject: [SignerSurfaceConfig],
      useFactory: (config: SignerSurfaceConfig) =>
        ChainRegistry.fromEnvironment({ ...process.env, DEVNET_MANIFEST: config.DEVNET_MANIFEST }),
    },
    {
      provide: SignerChains,
      inject: [ChainRegistry, SignerSurfaceConfig],
      useFactory: (registry: ChainRegistry, config: SignerSurfaceConfig) =>
        new SignerChains(registry, config.RPC_TIMEOUT_MS),
    },
  ],
  exports: [SignerChains],
})
export class ChainsModule {}
