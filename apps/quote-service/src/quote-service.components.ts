import { ChainRegistry } from '@swapgw/chains';
import { DataSource } from 'typeorm';
import { CatalogSync } from './catalog/catalog-sync.service';
import { CatalogService } from './catalog/catalog.service';
import { SupportPolicy } from './catalog/support-policy';
import {
  DevnetTokenSource,
  NativeCoinSource,
  RemoteTokenListSource,
  SolanaCoreListSource,
  TokenListSource,
  UniswapDefaultListSource,
} from './catalog/token-sources';
import { QuoteServiceConfig } from './config/quote-service.config';
import { DevnetBridgeProvider } from './providers/devnet-bridge.provider';
import { JupiterProvider } from './providers/jupiter.provider';
import { LifiProvider } from './providers/lifi.provider';
import { QuoteProvider, RouteWarningThresholds } from './providers/quote-provider';
import { UniswapV2Provider } from './providers/uniswap-v2.provider';
import { UniswapV2Quoter } from './providers/uniswap-v2-quoter';
import { ChainFeeOracle, registryFeeReaders } from './quote/gas-coverage';
import { QuoteRetention } from './quote/quote-retention';
import { QuoteService } from './quote/quote.service';
import { TrendingCounter } from './quote/trending-counter';
import { TokenResolver } from './quote/token-resolver';

/** Everything quote-service does, wired from a config: used by the Nest module and by tests. */
export interface QuoteServiceComponents {
  registry: ChainRegistry;
  sync: CatalogSync;
  catalog: CatalogService;
  quotes: QuoteService;
  retention: QuoteRetention;
  trending: TrendingCounter;
}

/** Placeholder sender for LI.FI quotes from Solana without a recipient (the System Program id). */
const SOLANA_QUOTE_FROM_ADDRESS = '11111111111111111111111111111111';

export function createQuoteServiceComponents(
  config: QuoteServiceConfig,
  dataSource: DataSource,
  registry: ChainRegistry = registryFromConfig(config),
): QuoteServiceComponents {
  const lifiEnabled = Boolean(config.LIFI_API_URL);
  const jupiterEnabled = Boolean(config.JUPITER_API_URL);
  const policy = new SupportPolicy(registry, { lifiEnabled, jupiterChain: jupiterEnabled ? config.JUPITER_CHAIN : undefined });
  const sources: TokenListSource[] = [new DevnetTokenSource(), new NativeCoinSource(), new SolanaCoreListSource(), new UniswapDefaultListSource()];
  if (config.TOKEN_LIST_URL) sources.push(new RemoteTokenListSource(config.TOKEN_LIST_URL, config.TOKEN_LIST_TIMEOUT_MS));
  const sync = new CatalogSync(dataSource, registry, sources, policy, {
    refreshMs: config.TOKEN_LIST_REFRESH_MS,
    retryIntervalMs: config.DISCOVERY_RETRY_INTERVAL_MS,
  });

  const thresholds: RouteWarningThresholds = {
    priceImpactBps: config.PRICE_IMPACT_WARNING_BPS,
    thinLiquidityBps: config.THIN_LIQUIDITY_WARNING_BPS,
  };
  const quoter = new UniswapV2Quoter(registry);
  const providers: QuoteProvider[] = [new UniswapV2Provider(quoter, thresholds), new DevnetBridgeProvider(registry, quoter, thresholds)];
  if (config.LIFI_API_URL) {
    providers.push(
      new LifiProvider(
        {
          baseUrl: config.LIFI_API_URL,
          apiKey: config.LIFI_API_KEY,
          quoteFromAddressEvm: config.LIFI_QUOTE_FROM_ADDRESS,
          quoteFromAddressSolana: SOLANA_QUOTE_FROM_ADDRESS,
        },
        thresholds,
      ),
    );
  }
  if (config.JUPITER_API_URL) {
    providers.push(new JupiterProvider({ baseUrl: config.JUPITER_API_URL, apiKey: config.JUPITER_API_KEY, chain: config.JUPITER_CHAIN }, thresholds));
  }
  const trending = new TrendingCounter(dataSource);
  const fees = new ChainFeeOracle(registryFeeReaders(registry));
  const quotes = new QuoteService(dataSource, registry, new TokenResolver(dataSource, registry), providers, trending, fees, {
    ttlMs: config.QUOTE_TTL_MS,
    providerTimeoutMs: config.QUOTE_PROVIDER_TIMEOUT_MS,
    defaultSlippageBps: config.DEFAULT_SLIPPAGE_BPS,
  });
  const retention = new QuoteRetention(dataSource, config.QUOTE_RETENTION_MS);
  return { registry, sync, catalog: new CatalogService(dataSource, sync), quotes, retention, trending };
}

export function registryFromConfig(config: QuoteServiceConfig): ChainRegistry {
  return ChainRegistry.fromEnvironment({
    DEVNET_MANIFEST: config.DEVNET_MANIFEST,
    RPC_URL_ETHEREUM: config.RPC_URL_ETHEREUM,
    RPC_URL_BASE: config.RPC_URL_BASE,
    RPC_URL_ARBITRUM: config.RPC_URL_ARBITRUM,
    RPC_URL_SOLANA: config.RPC_URL_SOLANA,
  });
}
