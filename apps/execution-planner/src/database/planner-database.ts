import { OutboxMessageEntity, ProcessedEventEntity } from '@swapgw/messaging';
import { ServiceDataSourceOptions } from '@swapgw/persistence';
import { PLANNER_MIGRATIONS } from '../migrations';
import { SwapEntity } from '../swaps/swap.entity';
import { SwapStepEntity } from '../swaps/swap-step.entity';

export const PLANNER_SCHEMA = 'planner';
export const PLANNER_ENTITIES = [SwapEntity, SwapStepEntity, OutboxMessageEntity, ProcessedEventEntity];

/** The planner's schema, entities and migrations: shared by the app, the migrate CLI and tests. */
export function plannerDatabaseOptions(url: string, poolSize?: number): ServiceDataSourceOptions {
  return {
    url,
    schema: PLANNER_SCHEMA,
    entities: PLANNER_ENTITIES,
    migrations: PLANNER_MIGRATIONS,
    poolSize,
    applicationName: 'execution-planner',
  };
}
