import { Module } from '@nestjs/common';
import { LimitOrdersController } from './limit-orders.controller';
import { LimitOrdersService } from './limit-orders.service';

/** The five limit-order endpoints; the orders themselves live in limit-order-service. */
@Module({
  controllers: [LimitOrdersController],
  providers: [LimitOrdersService],
})
export class LimitOrdersModule {}
