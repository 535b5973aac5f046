import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Topics } from '@swapgw/contracts';
import { MessagingModule } from '@swapgw/messaging';
import { serviceDataSourceOptions } from '@swapgw/persistence';
import { Clock, SystemClock } from '@swapgw/runtime';
import { ExecutionPlannerConfig } from './config/execution-planner.config';
import { plannerDatabaseOptions } from './database/planner-database';
import { ExecutionPlannerWarmupModule } from './startup-warmups';
import { SwapsModule } from './swaps/swaps.module';

export const SERVICE_NAME = 'execution-planner';

@Module({})
export class AppModule {
  /** The app for a validated config; tests may give their own consumer group. */
  static forRoot(config: ExecutionPlannerConfig, options: { groupId?: string } = {}): DynamicModule {
    return {
      module: AppModule,
      global: true,
      providers: [
        { provide: ExecutionPlannerConfig, useValue: config },
        { provide: Clock, useClass: SystemClock },
      ],
      exports: [ExecutionPlannerConfig, Clock],
      imports: [
        TypeOrmModule.forRoot(
          serviceDataSourceOptions(plannerDatabaseOptions(config.databaseUrl, config.DB_POOL_SIZE)),
        ),
        MessagingModule.forRoot({
          config,
          clientId: SERVICE_NAME,
          groupId: options.groupId ?? SERVICE_NAME,
          outbox: true,
          // quote.reprice: the price checks of later legs (SwapPriceChecker).
          requestTopics: [Topics.quoteChecks],
        }),
        SwapsModule,
        ExecutionPlannerWarmupModule,
      ],
    };
  }
}
