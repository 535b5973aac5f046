import { Module, Type } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ChainRegistry } from '@swapgw/chains';
import { MessagingModule } from '@swapgw/messaging';
import { serviceDataSourceOptions } from '@swapgw/persistence';
import { RegistrySwapChains, SWAP_CHAINS } from './chains/swap-chains';
import { plannerDatabaseOptions } from './database/planner-database';
import { ExecutionPlannerConfig } from './planner.config';
import { PLANNER_OPTIONS, PlannerOptions } from './planner.options';
import { SigningEventsConsumer } from './swaps/signing-events.consumer';
import { SwapBuilder } from './swaps/swap-builder.service';
import { SwapCommandsConsumer } from './swaps/swap-commands.consumer';
import { SwapExpirySweeper } from './swaps/swap-expiry.sweeper';
import { SwapProgress } from './swaps/swap-progress.service';
import { SwapRequestsController } from './swaps/swap-requests.controller';

export const PLANNER_GROUP_ID = 'execution-planner';

/** The planner's Nest module for a validated config (tests give their own consumer group). */
export function plannerModule(config: ExecutionPlannerConfig, groupId: string = PLANNER_GROUP_ID): Type<unknown> {
  const options: PlannerOptions = {
    swapDeadlineSeconds: config.SWAP_DEADLINE_SECONDS,
    expirySweepIntervalMs: config.SWAP_EXPIRY_SWEEP_MS,
    clock: () => Date.now(),
  };

  @Module({
    imports: [
      TypeOrmModule.forRoot(serviceDataSourceOptions(plannerDatabaseOptions(config.DATABASE_URL, config.DB_POOL_SIZE))),
      MessagingModule.forRoot({
        clientId: PLANNER_GROUP_ID,
        groupId,
        outbox: true,
      }),
    ],
    controllers: [SwapCommandsConsumer, SwapRequestsController, SigningEventsConsumer],
    providers: [
      { provide: PLANNER_OPTIONS, useValue: options },
      {
        provide: SWAP_CHAINS,
        useFactory: () => new RegistrySwapChains(ChainRegistry.fromEnvironment({ ...process.env, DEVNET_MANIFEST: config.DEVNET_MANIFEST })),
      },
      SwapBuilder,
      SwapProgress,
      SwapExpirySweeper,
    ],
  })
  class ExecutionPlannerModule {}

  return ExecutionPlannerModule;
}
