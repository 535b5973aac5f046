import { Inject, Module, OnApplicationBootstrap, OnApplicationShutdown, OnModuleDestroy, Type } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { MessagingModule } from '@swapgw/messaging';
import { serviceDataSourceOptions } from '@swapgw/persistence';
import { DataSource } from 'typeorm';
import { CatalogRequestsController } from './catalog/catalog-requests.controller';
import { CatalogService } from './catalog/catalog.service';
import { QuoteServiceConfig } from './config/quote-service.config';
import { quoteDatabaseOptions } from './database/quote-database';
import { QuoteRequestsController } from './quote/quote-requests.controller';
import { QuoteService } from './quote/quote.service';
import { createQuoteServiceComponents, QuoteServiceComponents } from './quote-service.components';

export const QUOTE_GROUP_ID = 'quote-service';
const COMPONENTS = Symbol('QUOTE_SERVICE_COMPONENTS');
const PRUNE_INTERVAL_MS = 10 * 60_000;
/** How often the trending counts of quotes are added to the catalog (a ranking hint: seconds late is fine). */
const TRENDING_FLUSH_INTERVAL_MS = 5000;

/**
 * Seeds the catalog before the Kafka consumer starts serving, prunes old quotes while running, and
 * releases RPC providers at the end.
 */
class CatalogLifecycle implements OnApplicationBootstrap, OnModuleDestroy, OnApplicationShutdown {
  constructor(@Inject(COMPONENTS) private readonly components: QuoteServiceComponents) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.components.sync.seed();
    this.components.retention.start(PRUNE_INTERVAL_MS);
    this.components.trending.start(TRENDING_FLUSH_INTERVAL_MS);
  }

  /** Before the database closes: the last trending counts. */
  async onModuleDestroy(): Promise<void> {
    await Promise.all([this.components.trending.stop(), this.components.retention.stop()]);
  }

  onApplicationShutdown(): void {
    this.components.registry.destroy();
  }
}

/** quote-service's Nest module for a validated config (tests give their own consumer group). */
export function quoteServiceModule(config: QuoteServiceConfig, groupId: string = QUOTE_GROUP_ID): Type<unknown> {
  @Module({
    imports: [
      TypeOrmModule.forRoot(serviceDataSourceOptions(quoteDatabaseOptions(config.DATABASE_URL))),
      MessagingModule.forRoot({ clientId: QUOTE_GROUP_ID, groupId }),
    ],
    controllers: [CatalogRequestsController, QuoteRequestsController],
    providers: [
      { provide: COMPONENTS, inject: [DataSource], useFactory: (dataSource: DataSource) => createQuoteServiceComponents(config, dataSource) },
      { provide: CatalogService, inject: [COMPONENTS], useFactory: (c: QuoteServiceComponents) => c.catalog },
      { provide: QuoteService, inject: [COMPONENTS], useFactory: (c: QuoteServiceComponents) => c.quotes },
      CatalogLifecycle,
    ],
  })
  class QuoteServiceModule {}
  return QuoteServiceModule;
}
