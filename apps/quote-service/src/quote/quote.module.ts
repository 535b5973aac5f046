import { ChainFamilies } from '@swapgw/chains/families';
import { Module } from '@nestjs/common';
import { ChainRegistry } from '@swapgw/chains';
import { Clock } from '@swapgw/runtime';
import { CatalogModule } from '../catalog/catalog.module';
import { ChainsModule } from '../chains/chains.module';
import { ProvidersModule, QUOTE_PROVIDERS } from '../providers/providers.module';
import { QuoteProvider } from '../providers/quote-provider';
import { QuoteServiceConfig } from '../config/quote-service.config';
import { CHAIN_FEE_ORACLE_DEFAULTS, ChainFeeOracle, familyFeeReaders } from './gas-coverage';
import { QuoteRequestsController } from './quote-requests.controller';
import { QuoteRetention } from './quote-retention';
import { QuoteRepository } from './quote.repository';
import { QuoteService } from './quote.service';
import { familyPreflightReads, RoutePreflight } from './route-preflight';
import { RouteRepricer } from './route-repricer';
import { TokenResolver } from './token-resolver';
import { TrendingCounter } from './trending-counter';

/**
 * Quotes (`quote.requests`): asks the providers, prices the gas the service covers, stores each
 * quote with its route plans, re-prices one leg of a plan for a build (`quote.reprice`); expired ones are pruned after QUOTE_RETENTION_MS.
 */
@Module({
  imports: [ChainsModule, ProvidersModule, CatalogModule],
  controllers: [QuoteRequestsController],
  // The gas prices are read once at start (startup-warmups.ts).
  exports: [ChainFeeOracle],
  providers: [
    TokenResolver,
    TrendingCounter,
    {
      provide: ChainFeeOracle,
      inject: [ChainFamilies, Clock],
      useFactory: (families: ChainFamilies, clock: Clock) =>
        new ChainFeeOracle(familyFeeReaders(families), CHAIN_FEE_ORACLE_DEFAULTS, clock),
    },
    {
      provide: RoutePreflight,
      inject: [ChainFamilies, ChainRegistry, Clock],
      useFactory: (families: ChainFamilies, registry: ChainRegistry, clock: Clock) =>
        new RoutePreflight(familyPreflightReads(families, registry, clock)),
    },
    QuoteRepository,
    QuoteService,
    {
      provide: RouteRepricer,
      inject: [ChainRegistry, QUOTE_PROVIDERS, QuoteServiceConfig],
      useFactory: (registry: ChainRegistry, providers: QuoteProvider[], config: QuoteServiceConfig) =>
        new RouteRepricer(registry, providers, config.QUOTE_PROVIDER_TIMEOUT_MS),
    },
    QuoteRetention,
  ],
})
export class QuoteModule {}
