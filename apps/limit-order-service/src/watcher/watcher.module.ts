import { Module } from '@nestjs/common';
import { LimitOrderServiceConfig } from '../config/limit-order-service.config';
import { MarketModule } from '../market/market.module';
import { OrdersModule } from '../orders/orders.module';
import { ExpirySweeper } from './expiry-sweeper';
import { BackgroundLoops } from './background-loops';
import { TriggerWatcher, WatcherSettings } from './trigger-watcher';

/** What moves open orders without a request: the trigger watcher and the expiry sweeper, on their loops. */
@Module({
  imports: [OrdersModule, MarketModule],
  providers: [
    TriggerWatcher,
    ExpirySweeper,
    BackgroundLoops,
    {
      provide: WatcherSettings,
      inject: [LimitOrderServiceConfig],
      useFactory: (config: LimitOrderServiceConfig): WatcherSettings => ({
        intervalMs: config.WATCH_INTERVAL_MS,
        batchSize: config.WATCH_BATCH_SIZE,
        maxFailedChecks: config.WATCH_MAX_FAILED_CHECKS,
      }),
    },
  ],
})
export class WatcherModule {}
