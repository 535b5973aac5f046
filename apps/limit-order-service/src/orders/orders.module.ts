import { Module } from '@nestjs/common';
import { IdempotencyStore } from '../idempotency/idempotency.store';
import { MarketModule } from '../market/market.module';
import { LimitOrderHistory } from './limit-order-history';
import { LimitOrderRequestsController } from './limit-order-requests.controller';
import { LimitOrdersService } from './limit-orders.service';

/** The five request-reply operations on limit orders, and the order history they write. */
@Module({
  imports: [MarketModule],
  controllers: [LimitOrderRequestsController],
  providers: [LimitOrdersService, LimitOrderHistory, IdempotencyStore],
  exports: [LimitOrderHistory],
})
export class OrdersModule {}
