import { Module } from '@nestjs/common';
import { ChainRegistry } from '@swapgw/chains';
import { ChainsModule } from '../chains/chains.module';
import { QuoteServiceConfig } from '../config/quote-service.config';
import { AcrossProvider } from './across.provider';
import { NobleCctpProvider } from './cosmos/noble-cctp.provider';
import { NobleForwardingProvider } from './cosmos/noble-forwarding.provider';
import { OsmosisProvider } from './cosmos/osmosis.provider';
import { SkipGoApi } from './skip-go/skip-go-api';
import { registrySkipChains, SkipGoProvider } from './skip-go/skip-go.provider';
import { DevnetBridgeProvider } from './devnet-bridge.provider';
import { JupiterProvider } from './jupiter.provider';
import { LifiProvider } from './lifi.provider';
import { QuoteProvider, RouteWarningThresholds } from './quote-provider';
import { UniswapV2Provider } from './uniswap-v2.provider';
import { UniswapV2Quoter } from './uniswap-v2-quoter';
import { UniswapV3Provider } from './uniswap-v3.provider';
import { UniswapV3Quoter } from './uniswap-v3-quoter';
import { ZeroXProvider } from './zero-x.provider';
import { ThorchainProvider } from './thorchain/thorchain.provider';
import { ThornodeClient } from './thorchain/thornode-client';
import { manifestThorchainPrefixes } from './thorchain/thorchain-chains';
import { Clock } from '@swapgw/runtime';
import { TokenTaxProbe } from './token-tax-probe';
import { TaxedTokenGuard } from './taxed-token-guard';
import { ChainFamilies } from '@swapgw/chains/families';

/** Every quote provider the config turns on, in the order they are listed in a quote's outcomes. */
export const QUOTE_PROVIDERS = Symbol('QUOTE_PROVIDERS');

const ROUTE_WARNING_THRESHOLDS = Symbol('ROUTE_WARNING_THRESHOLDS');

/** Placeholder sender for LI.FI quotes from Solana without a recipient (the System Program id). */
const SOLANA_QUOTE_FROM_ADDRESS = '11111111111111111111111111111111';

/**
 * The quote providers: Uniswap V2 and V3, the devnet bridge, Osmosis and the devnet bridge through
 * Noble's forwarding accounts into Osmosis (on chain reads through the
 * registry) always; Across unless ACROSS_API_URL is off; LI.FI, Jupiter, THORChain and Skip Go when
 * their API URL is configured, 0x when its API key is (null otherwise).
 */
@Module({
  imports: [ChainsModule],
  providers: [
    {
      provide: ROUTE_WARNING_THRESHOLDS,
      inject: [QuoteServiceConfig],
      useFactory: (config: QuoteServiceConfig): RouteWarningThresholds => ({
        priceImpactBps: config.PRICE_IMPACT_WARNING_BPS,
        thinLiquidityBps: config.THIN_LIQUIDITY_WARNING_BPS,
      }),
    },
    UniswapV2Quoter,
    UniswapV3Quoter,
    {
      provide: TokenTaxProbe,
      inject: [ChainRegistry, ChainFamilies, Clock],
      useFactory: (registry: ChainRegistry, families: ChainFamilies, clock: Clock) =>
        new TokenTaxProbe(registry, families, clock),
    },
    {
      provide: UniswapV3Provider,
      inject: [UniswapV3Quoter, ROUTE_WARNING_THRESHOLDS, UniswapV2Quoter, TokenTaxProbe],
      useFactory: (
        quoter: UniswapV3Quoter,
        thresholds: RouteWarningThresholds,
        v2: UniswapV2Quoter,
        taxProbe: TokenTaxProbe,
      ) => new UniswapV3Provider(quoter, thresholds, new TaxedTokenGuard(v2, taxProbe)),
    },
    {
      provide: UniswapV2Provider,
      inject: [UniswapV2Quoter, ROUTE_WARNING_THRESHOLDS, TokenTaxProbe],
      useFactory: (quoter: UniswapV2Quoter, thresholds: RouteWarningThresholds, taxProbe: TokenTaxProbe) =>
        new UniswapV2Provider(quoter, thresholds, taxProbe),
    },
    {
      provide: DevnetBridgeProvider,
      inject: [ChainRegistry, UniswapV2Quoter, ROUTE_WARNING_THRESHOLDS],
      useFactory: (registry: ChainRegistry, quoter: UniswapV2Quoter, thresholds: RouteWarningThresholds) =>
        new DevnetBridgeProvider(registry, quoter, thresholds),
    },
    {
      provide: LifiProvider,
      inject: [QuoteServiceConfig, ROUTE_WARNING_THRESHOLDS],
      useFactory: (config: QuoteServiceConfig, thresholds: RouteWarningThresholds) =>
        config.LIFI_API_URL
          ? new LifiProvider(
              {
                baseUrl: config.LIFI_API_URL,
                apiKey: config.LIFI_API_KEY,
                quoteFromAddressEvm: config.LIFI_QUOTE_FROM_ADDRESS,
                quoteFromAddressSolana: SOLANA_QUOTE_FROM_ADDRESS,
                ...(config.LIFI_INTEGRATOR && config.LIFI_FEE_WALLET_EVM
                  ? { integrator: config.LIFI_INTEGRATOR, feeWalletEvm: config.LIFI_FEE_WALLET_EVM }
                  : {}),
              },
              thresholds,
            )
          : null,
    },
    {
      provide: JupiterProvider,
      inject: [QuoteServiceConfig, ROUTE_WARNING_THRESHOLDS],
      useFactory: (config: QuoteServiceConfig, thresholds: RouteWarningThresholds) =>
        config.JUPITER_API_URL
          ? new JupiterProvider(
              {
                baseUrl: config.JUPITER_API_URL,
                apiKey: config.JUPITER_API_KEY,
                chain: config.JUPITER_CHAIN,
              },
              thresholds,
            )
          : null,
    },
    {
      provide: ZeroXProvider,
      inject: [QuoteServiceConfig],
      useFactory: (config: QuoteServiceConfig) =>
        config.ZEROX_API_KEY
          ? new ZeroXProvider({
              baseUrl: config.ZEROX_API_URL,
              apiKey: config.ZEROX_API_KEY,
              quoteTakerAddress: config.ZEROX_QUOTE_TAKER_ADDRESS,
            })
          : null,
    },
    {
      provide: AcrossProvider,
      inject: [ChainRegistry, UniswapV3Quoter, ROUTE_WARNING_THRESHOLDS, QuoteServiceConfig],
      useFactory: (
        registry: ChainRegistry,
        quoter: UniswapV3Quoter,
        thresholds: RouteWarningThresholds,
        config: QuoteServiceConfig,
      ) =>
        config.ACROSS_API_URL === 'off'
          ? null
          : new AcrossProvider(registry, quoter, thresholds, { baseUrl: config.ACROSS_API_URL }),
    },
    {
      provide: ThorchainProvider,
      inject: [QuoteServiceConfig, Clock, ChainRegistry],
      useFactory: (config: QuoteServiceConfig, clock: Clock, registry: ChainRegistry) =>
        config.THORNODE_URL
          ? new ThorchainProvider(new ThornodeClient(config.THORNODE_URL), clock, {
              // The devnet's local THORNode names its EVM chains in the manifest.
              chainPrefixes: manifestThorchainPrefixes(registry),
              ...(config.THORCHAIN_AFFILIATE
                ? { affiliate: config.THORCHAIN_AFFILIATE, affiliateBps: config.THORCHAIN_AFFILIATE_BPS }
                : {}),
            })
          : null,
    },
    {
      provide: OsmosisProvider,
      inject: [ChainRegistry, ROUTE_WARNING_THRESHOLDS, QuoteServiceConfig],
      useFactory: (registry: ChainRegistry, thresholds: RouteWarningThresholds, config: QuoteServiceConfig) =>
        new OsmosisProvider(registry, thresholds, config.RPC_TIMEOUT_MS),
    },
    {
      provide: NobleForwardingProvider,
      inject: [ChainRegistry, ROUTE_WARNING_THRESHOLDS, QuoteServiceConfig],
      useFactory: (registry: ChainRegistry, thresholds: RouteWarningThresholds, config: QuoteServiceConfig) =>
        new NobleForwardingProvider(registry, thresholds, config.RPC_TIMEOUT_MS),
    },
    {
      provide: NobleCctpProvider,
      inject: [ChainRegistry, ROUTE_WARNING_THRESHOLDS, QuoteServiceConfig],
      useFactory: (registry: ChainRegistry, thresholds: RouteWarningThresholds, config: QuoteServiceConfig) =>
        new NobleCctpProvider(registry, thresholds, config.RPC_TIMEOUT_MS),
    },
    {
      provide: SkipGoProvider,
      inject: [ChainRegistry, ROUTE_WARNING_THRESHOLDS, QuoteServiceConfig],
      useFactory: (
        registry: ChainRegistry,
        thresholds: RouteWarningThresholds,
        config: QuoteServiceConfig,
      ) =>
        config.SKIP_GO_API_URL
          ? new SkipGoProvider(
              new SkipGoApi({ baseUrl: config.SKIP_GO_API_URL, apiKey: config.SKIP_GO_API_KEY }),
              registrySkipChains(registry),
              thresholds,
            )
          : null,
    },
    {
      provide: QUOTE_PROVIDERS,
      inject: [
        UniswapV2Provider,
        UniswapV3Provider,
        DevnetBridgeProvider,
        AcrossProvider,
        LifiProvider,
        JupiterProvider,
        ZeroXProvider,
        ThorchainProvider,
        OsmosisProvider,
        NobleForwardingProvider,
        NobleCctpProvider,
        SkipGoProvider,
      ],
      useFactory: (...providers: (QuoteProvider | null)[]): QuoteProvider[] =>
        providers.filter((provider): provider is QuoteProvider => provider !== null),
    },
  ],
  exports: [QUOTE_PROVIDERS],
})
export class ProvidersModule {}
