import { Module } from '@nestjs/common';
import { KafkaCatalogDirectory, QuoteServiceMarketQuoter } from './kafka-upstream.adapters';
import { CatalogDirectory, MarketQuoter, SwapBuildCommands } from './upstream.ports';
import { OutboxSwapBuildCommands } from './outbox-swap-build-commands';

/** The market behind its ports: quote-service's catalog and quotes, execution-planner's swap builds. */
@Module({
  providers: [
    { provide: CatalogDirectory, useClass: KafkaCatalogDirectory },
    { provide: MarketQuoter, useClass: QuoteServiceMarketQuoter },
    { provide: SwapBuildCommands, useClass: OutboxSwapBuildCommands },
  ],
  exports: [CatalogDirectory, MarketQuoter, SwapBuildCommands],
})
export class UpstreamModule {}
