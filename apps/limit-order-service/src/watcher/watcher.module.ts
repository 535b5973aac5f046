import { Module } from '@nestjs/common';
import { MarketModule } from '../market/market.module';
import { OrdersModule } from '../orders/orders.module';
import { ExpirySweeper } from './expiry-sweeper';
import { BackgroundLoops } from './background-loops';
import { TriggerWatcher } from './trigger-watcher';

/** What moves open orders without a request: the trigger watcher and the expiry sweeper, on their loops. */
@Module({
  imports: [OrdersModule, MarketModule],
  providers: [TriggerWatcher, ExpirySweeper, BackgroundLoops],
})
export class WatcherModule {}
