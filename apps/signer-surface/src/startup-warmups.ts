import { Module } from '@nestjs/common';
import { STARTUP_WARMUPS, StartupWarmup } from '@swapgw/runtime';
import { ChainsModule } from './chains/chains.module';
import { SignerChains } from './chains/signer-chains';

/**
 * What signer-surface loads before it reports ready (bootstrapKafkaService runs STARTUP_WARMUPS
 * before the consumer starts): the signing clients of every chain with an RPC URL, each EVM
 * chain's head and Multicall3 presence, Solana's slot (ChainFamilies.startupWarmup).
 */
@Module({
  imports: [ChainsModule],
  providers: [
    {
      provide: STARTUP_WARMUPS,
      inject: [SignerChains],
      useFactory: (chains: SignerChains): StartupWarmup[] => [chains.families.startupWarmup('signer chains')],
    },
  ],
  exports: [STARTUP_WARMUPS],
})
export class SignerSurfaceWarmupModule {}
