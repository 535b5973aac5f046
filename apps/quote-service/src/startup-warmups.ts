import { Module } from '@nestjs/common';
import { ChainRegistry } from '@swapgw/chains';
import { ChainFamilies } from '@swapgw/chains/families';
import { STARTUP_WARMUPS, StartupWarmup } from '@swapgw/runtime';
import { ChainsModule } from './chains/chains.module';
import { ChainFeeOracle } from './quote/gas-coverage';
import { QuoteModule } from './quote/quote.module';

/**
 * What quote-service loads before it reports ready (bootstrapKafkaService runs STARTUP_WARMUPS
 * after the catalog seed, before the consumer starts). Measured (startup-warmups.int-spec.ts): a
 * cold service's first quote sent an `eth_getCode` (is Multicall3 there?) and an `eth_gasPrice`
 * (the gas coverage's price, kept 10 s) that later quotes do not. So: the chain clients the quote
 * providers read through, each EVM chain's head and Multicall3 presence
 * (ChainFamilies.startupWarmup), and each chain's gas price in the fee oracle.
 */
@Module({
  imports: [ChainsModule, QuoteModule],
  providers: [
    {
      provide: STARTUP_WARMUPS,
      inject: [ChainFamilies, ChainRegistry, ChainFeeOracle],
      useFactory: (
        families: ChainFamilies,
        registry: ChainRegistry,
        fees: ChainFeeOracle,
      ): StartupWarmup[] => [
        families.startupWarmup('chains'),
        {
          warmupName: 'gas prices',
          // ratesOf never rejects: a chain that does not answer gets its fallback, as a quote would.
          warmUp: () =>
            Promise.all(
              registry
                .list()
                .filter((chain) => chain.rpcUrl)
                .map((chain) => fees.ratesOf(chain)),
            ),
        },
      ],
    },
  ],
  exports: [STARTUP_WARMUPS],
})
export class QuoteServiceWarmupModule {}
