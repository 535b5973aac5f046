import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Topics } from '@swapgw/contracts';
import { MessagingModule } from '@swapgw/messaging';
import { serviceDataSourceOptions } from '@swapgw/persistence';
import { Clock, SystemClock } from '@swapgw/runtime';
import { LimitOrderServiceConfig } from './config/limit-order-service.config';
import { limitOrderDatabaseOptions } from './database/limit-order-database';
import { UpstreamModule } from './upstream/upstream.module';
import { OrdersModule } from './orders/orders.module';
import { AutomaticTransitionsModule } from './automatic-transitions/automatic-transitions.module';
import { LimitOrderServiceWarmupModule } from './startup-warmups';

export const SERVICE_NAME = 'limit-order-service';

@Module({})
export class AppModule {
  /** The app for a validated config; tests may give their own consumer group. */
  static forRoot(config: LimitOrderServiceConfig, options: { groupId?: string } = {}): DynamicModule {
    return {
      module: AppModule,
      global: true,
      providers: [
        { provide: LimitOrderServiceConfig, useValue: config },
        { provide: Clock, useClass: SystemClock },
      ],
      exports: [LimitOrderServiceConfig, Clock],
      imports: [
        TypeOrmModule.forRoot(
          serviceDataSourceOptions(limitOrderDatabaseOptions(config.databaseUrl, config.DB_POOL_SIZE)),
        ),
        MessagingModule.forRoot({
          config,
          clientId: SERVICE_NAME,
          groupId: options.groupId ?? SERVICE_NAME,
          requestTopics: [Topics.catalogRequests, Topics.quoteRequests],
          outbox: true,
        }),
        UpstreamModule,
        OrdersModule,
        AutomaticTransitionsModule,
        LimitOrderServiceWarmupModule,
      ],
    };
  }
}
