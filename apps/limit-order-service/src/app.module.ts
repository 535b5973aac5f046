import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Topics } from '@swapgw/contracts';
import { MessagingModule } from '@swapgw/messaging';
import { loadConfig } from '@swapgw/runtime';
import { serviceDataSourceOptions } from '@swapgw/persistence';
import { LimitOrderServiceConfig } from './config/limit-order-service.config';
import { limitOrderDatabaseOptions } from './database/limit-order-database';
import { IdempotencyStore } from './idempotency/idempotency.store';
import { KafkaCatalogDirectory, PlannerSwapBuilder, QuoteServiceMarketQuoter } from './market/kafka-market.adapters';
import { CatalogDirectory, MarketQuoter, SwapBuilder } from './market/market.ports';
import { LimitOrderHistory } from './orders/limit-order-history';
import { LimitOrderRequestsController } from './orders/limit-order-requests.controller';
import { Clock, LimitOrderSettings, LimitOrdersService, SystemClock } from './orders/limit-orders.service';
import { ExpirySweeper } from './sweeper/expiry-sweeper';
import { BackgroundLoops } from './watcher/background-loops';
import { TriggerWatcher, WatcherSettings } from './watcher/trigger-watcher';

export const LIMIT_ORDER_SERVICE = 'limit-order-service';

const config = loadConfig(LimitOrderServiceConfig);

@Module({
  imports: [
    TypeOrmModule.forRoot(serviceDataSourceOptions(limitOrderDatabaseOptions(config.DATABASE_URL, config.DB_POOL_SIZE))),
    MessagingModule.forRoot({
      clientId: LIMIT_ORDER_SERVICE,
      groupId: LIMIT_ORDER_SERVICE,
      requestTopics: [Topics.catalogRequests, Topics.quoteRequests, Topics.swapRequests],
      outbox: true,
    }),
  ],
  controllers: [LimitOrderRequestsController],
  providers: [
    { provide: LimitOrderServiceConfig, useValue: config },
    { provide: Clock, useClass: SystemClock },
    { provide: LimitOrderSettings, useValue: { iocMaxQuotes: config.IOC_MAX_QUOTES } satisfies LimitOrderSettings },
    {
      provide: WatcherSettings,
      useValue: {
        intervalMs: config.WATCH_INTERVAL_MS,
        batchSize: config.WATCH_BATCH_SIZE,
        maxFailedChecks: config.WATCH_MAX_FAILED_CHECKS,
      } satisfies WatcherSettings,
    },
    { provide: IdempotencyStore, useValue: new IdempotencyStore() },
    { provide: CatalogDirectory, useClass: KafkaCatalogDirectory },
    { provide: MarketQuoter, useClass: QuoteServiceMarketQuoter },
    { provide: SwapBuilder, useClass: PlannerSwapBuilder },
    LimitOrderHistory,
    LimitOrdersService,
    ExpirySweeper,
    TriggerWatcher,
    BackgroundLoops,
  ],
})
export class AppModule {}
