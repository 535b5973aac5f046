import { Module } from '@nestjs/common';
import { ChainFamilies } from '@swapgw/chains/families';
import { STARTUP_WARMUPS, StartupWarmup } from '@swapgw/runtime';
import { ChainsModule } from './chains/chains.module';

/**
 * What quote-service loads before it reports ready (bootstrapKafkaService runs STARTUP_WARMUPS
 * after the catalog seed, before the consumer starts): the chain clients the quote providers read
 * through, each EVM chain's head and Multicall3 presence (ChainFamilies.startupWarmup).
 */
@Module({
  imports: [ChainsModule],
  providers: [
    {
      provide: STARTUP_WARMUPS,
      inject: [ChainFamilies],
      useFactory: (families: ChainFamilies): StartupWarmup[] => [families.startupWarmup('chains')],
    },
  ],
  exports: [STARTUP_WARMUPS],
})
export class QuoteServiceWarmupModule {}
