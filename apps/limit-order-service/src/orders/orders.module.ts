import { Module } from '@nestjs/common';
import { LimitOrderServiceConfig } from '../config/limit-order-service.config';
import { IdempotencyStore } from '../idempotency/idempotency.store';
import { MarketModule } from '../market/market.module';
import { LimitOrderHistory } from './limit-order-history';
import { LimitOrderRequestsController } from './limit-order-requests.controller';
import { Clock, SystemClock } from '@swapgw/runtime';
import { LimitOrderSettings, LimitOrdersService } from './limit-orders.service';

/** The five request-reply operations on limit orders, and the order history they write. */
@Module({
  imports: [MarketModule],
  controllers: [LimitOrderRequestsController],
  providers: [
    LimitOrdersService,
    LimitOrderHistory,
    IdempotencyStore,
    { provide: Clock, useClass: SystemClock },
    {
      provide: LimitOrderSettings,
      inject: [LimitOrderServiceConfig],
      useFactory: (config: LimitOrderServiceConfig): LimitOrderSettings => ({
        iocMaxQuotes: config.IOC_MAX_QUOTES,
      }),
    },
  ],
  exports: [LimitOrderHistory, Clock],
})
export class OrdersModule {}
