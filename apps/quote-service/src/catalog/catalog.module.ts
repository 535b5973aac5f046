import { Module } from '@nestjs/common';
import { ChainRegistry } from '@swapgw/chains';
import { Clock } from '@swapgw/runtime';
import { ChainsModule } from '../chains/chains.module';
import { QuoteServiceConfig } from '../config/quote-service.config';
import { CatalogRequestsController } from './catalog-requests.controller';
import { CatalogSync } from './catalog-sync.service';
import { CatalogRepository } from './catalog.repository';
import { CatalogService } from './catalog.service';
import { manifestThorchainPrefixes } from '../providers/thorchain/thorchain-chains';
import { ThornodeClient } from '../providers/thorchain/thornode-client';
import { SupportPolicy } from './support-policy';
import {
  DevnetTokenSource,
  NativeCoinSource,
  RemoteTokenListSource,
  ChainCatalogSource,
  TokenListSource,
} from './token-sources';

const TOKEN_LIST_SOURCES = Symbol('TOKEN_LIST_SOURCES');

/**
 * The built-in token sources (the devnet's, the real networks' native coins and shipped catalog),
 * and the Token Lists document of TOKEN_LIST_URL when the operator configures one: a list is read
 * at run time, never shipped (the Uniswap list is GPL-3.0; the image carries none).
 */
function tokenListSources(config: QuoteServiceConfig): TokenListSource[] {
  const sources: TokenListSource[] = [
    new DevnetTokenSource(),
    new NativeCoinSource(),
    new ChainCatalogSource(),
  ];
  if (config.TOKEN_LIST_URL) {
    sources.push(new RemoteTokenListSource(config.TOKEN_LIST_URL, config.TOKEN_LIST_TIMEOUT_MS));
  }
  return sources;
}

/**
 * The catalog of chains, tokens and pairs (`catalog.requests`): seeded from the registry and the
 * token lists before the app serves, with each token's providers as the configuration allows.
 */
@Module({
  imports: [ChainsModule],
  controllers: [CatalogRequestsController],
  providers: [
    CatalogRepository,
    { provide: TOKEN_LIST_SOURCES, inject: [QuoteServiceConfig], useFactory: tokenListSources },
    {
      provide: SupportPolicy,
      inject: [ChainRegistry, QuoteServiceConfig],
      useFactory: (registry: ChainRegistry, config: QuoteServiceConfig) =>
        new SupportPolicy(registry, {
          lifiEnabled: Boolean(config.LIFI_API_URL),
          zeroXEnabled: Boolean(config.ZEROX_API_KEY),
          acrossEnabled: config.ACROSS_API_URL !== 'off',
          jupiterChain: config.JUPITER_API_URL ? config.JUPITER_CHAIN : undefined,
          skipGoEnabled: Boolean(config.SKIP_GO_API_URL),
          thorchainPrefixes: config.THORNODE_URL ? manifestThorchainPrefixes(registry) : undefined,
        }),
    },
    {
      provide: CatalogSync,
      inject: [
        CatalogRepository,
        ChainRegistry,
        TOKEN_LIST_SOURCES,
        SupportPolicy,
        QuoteServiceConfig,
        Clock,
      ],
      useFactory: (
        catalog: CatalogRepository,
        registry: ChainRegistry,
        sources: TokenListSource[],
        policy: SupportPolicy,
        config: QuoteServiceConfig,
        clock: Clock,
      ) =>
        new CatalogSync(
          catalog,
          registry,
          sources,
          policy,
          // THORNode's pools decide which pairs THORChain lists (read at seed, refreshed as the lists).
          config.THORNODE_URL ? new ThornodeClient(config.THORNODE_URL) : undefined,
          { refreshMs: config.TOKEN_LIST_REFRESH_MS, retryIntervalMs: config.DISCOVERY_RETRY_INTERVAL_MS },
          clock,
        ),
    },
    CatalogService,
  ],
  exports: [CatalogRepository],
})
export class CatalogModule {}
