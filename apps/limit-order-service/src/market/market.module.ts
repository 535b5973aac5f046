import { Module } from '@nestjs/common';
import { KafkaCatalogDirectory, PlannerSwapBuilder, QuoteServiceMarketQuoter } from './kafka-market.adapters';
import { CatalogDirectory, MarketQuoter, SwapBuilder } from './market.ports';

/** The market behind its ports: quote-service's catalog and quotes, execution-planner's swap builds. */
@Module({
  providers: [
    { provide: CatalogDirectory, useClass: KafkaCatalogDirectory },
    { provide: MarketQuoter, useClass: QuoteServiceMarketQuoter },
    { provide: SwapBuilder, useClass: PlannerSwapBuilder },
  ],
  exports: [CatalogDirectory, MarketQuoter, SwapBuilder],
})
export class MarketModule {}
