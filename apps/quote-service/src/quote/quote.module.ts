import { ChainFamilies } from '@swapgw/chains/families';
import { Module } from '@nestjs/common';
import { ChainRegistry } from '@swapgw/chains';
import { DataSource } from 'typeorm';
import { ChainsModule } from '../chains/chains.module';
import { QuoteServiceConfig } from '../config/quote-service.config';
import { ProvidersModule, QUOTE_PROVIDERS } from '../providers/providers.module';
import { QuoteProvider } from '../providers/quote-provider';
import { ChainFeeOracle, familyFeeReaders } from './gas-coverage';
import { QuoteRequestsController } from './quote-requests.controller';
import { QuoteRetention } from './quote-retention';
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
  imports: [ChainsModule, ProvidersModule],
  controllers: [QuoteRequestsController],
  providers: [
    TokenResolver,
    TrendingCounter,
    {
      provide: ChainFeeOracle,
      inject: [ChainFamilies],
      useFactory: (families: ChainFamilies) => new ChainFeeOracle(familyFeeReaders(families)),
    },
    {
      provide: QuoteService,
      inject: [
        DataSource,
        ChainRegistry,
        TokenResolver,
        QUOTE_PROVIDERS,
        TrendingCounter,
        ChainFeeOracle,
        QuoteServiceConfig,
        ChainFamilies,
      ],
      useFactory: (
        dataSource: DataSource,
        registry: ChainRegistry,
        tokens: TokenResolver,
        providers: QuoteProvider[],
        trending: TrendingCounter,
        fees: ChainFeeOracle,
        config: QuoteServiceConfig,
        families: ChainFamilies,
      ) =>
        new QuoteService(dataSource, registry, tokens, providers, trending, fees, {
          ttlMs: config.QUOTE_TTL_MS,
          providerTimeoutMs: config.QUOTE_PROVIDER_TIMEOUT_MS,
          preflight: new RoutePreflight(familyPreflightReads(families, registry)),
        }),
    },
    {
      provide: RouteRepricer,
      inject: [ChainRegistry, QUOTE_PROVIDERS, QuoteServiceConfig],
      useFactory: (registry: ChainRegistry, providers: QuoteProvider[], config: QuoteServiceConfig) =>
        new RouteRepricer(registry, providers, config.QUOTE_PROVIDER_TIMEOUT_MS),
    },
    {
      provide: QuoteRetention,
      inject: [DataSource, QuoteServiceConfig],
      useFactory: (dataSource: DataSource, config: QuoteServiceConfig) =>
        new QuoteRetention(dataSource, config.QUOTE_RETENTION_MS),
    },
  ],
})
export class QuoteModule {}
