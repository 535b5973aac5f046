import { Module } from '@nestjs/common';
import { UpstreamModule } from '../upstream/upstream.module';
import { OrdersModule } from '../orders/orders.module';
import { ExpirySweeper } from './expiry-sweeper';
import { BackgroundLoops } from './background-loops';
import { TriggerWatcher } from './trigger-watcher';

/** What moves open orders without a request: the trigger watcher and the expiry sweeper, on their loops. */
@Module({
  imports: [OrdersModule, UpstreamModule],
  providers: [TriggerWatcher, ExpirySweeper, BackgroundLoops],
})
export class AutomaticTransitionsModule {}
