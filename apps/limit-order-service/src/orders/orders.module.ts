import { Module } from '@nestjs/common';
import { IdempotencyRepository } from '../idempotency/idempotency.repository';
import { UpstreamModule } from '../upstream/upstream.module';
import { LimitOrderHistory } from './limit-order-history';
import { LimitOrderRepository } from './limit-order.repository';
import { LimitOrderRequestsController } from './limit-order-requests.controller';
import { LimitOrdersService } from './limit-orders.service';

/** The five request-reply operations on limit orders, the order history they write and the orders' repository. */
@Module({
  imports: [UpstreamModule],
  controllers: [LimitOrderRequestsController],
  providers: [LimitOrdersService, LimitOrderHistory, LimitOrderRepository, IdempotencyRepository],
  exports: [LimitOrderHistory, LimitOrderRepository],
})
export class OrdersModule {}
