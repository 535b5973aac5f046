import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Topics } from '@swapgw/contracts';
import { ConsumerLane, MessagingModule } from '@swapgw/messaging';
import { serviceDataSourceOptions } from '@swapgw/persistence';
import { Clock, SystemClock } from '@swapgw/runtime';
import { CatalogModule } from './catalog/catalog.module';
import { QuoteServiceConfig } from './config/quote-service.config';
import { quoteDatabaseOptions } from './database/quote-database';
import { QuoteModule } from './quote/quote.module';
import { QuoteServiceWarmupModule } from './startup-warmups';

export const SERVICE_NAME = 'quote-service';

/**
 * A build's checks (quote.checks: the price re-check and the preflight) are consumed by a consumer
 * of their own, in group `quote-service-checks`: a flood of quotes on quote.requests never holds
 * them up, so a build is answered while the quotes before it still queue.
 */
export const CONSUMER_LANES: readonly ConsumerLane[] = [{ name: 'checks', topics: [Topics.quoteChecks] }];

@Module({})
export class AppModule {
  /** The app for a validated config; tests may give their own consumer group. */
  static forRoot(config: QuoteServiceConfig, options: { groupId?: string } = {}): DynamicModule {
    return {
      module: AppModule,
      global: true,
      providers: [
        { provide: QuoteServiceConfig, useValue: config },
        { provide: Clock, useClass: SystemClock },
      ],
      exports: [QuoteServiceConfig, Clock],
      imports: [
        TypeOrmModule.forRoot(serviceDataSourceOptions(quoteDatabaseOptions(config.databaseUrl))),
        MessagingModule.forRoot({
          config,
          clientId: SERVICE_NAME,
          groupId: options.groupId ?? SERVICE_NAME,
          lanes: CONSUMER_LANES,
        }),
        CatalogModule,
        QuoteModule,
        QuoteServiceWarmupModule,
      ],
    };
  }
}
