import './instrument';
import { bootstrapKafkaService } from '@swapgw/messaging';
import { prepareDatabase } from '@swapgw/persistence';
import { loadConfigOrExit } from '@swapgw/runtime';
import { PLANNER_GROUP_ID, plannerModule } from './app.module';
import { plannerDatabaseOptions } from './database/planner-database';
import { ExecutionPlannerConfig } from './planner.config';

async function main(): Promise<void> {
  const config = loadConfigOrExit(ExecutionPlannerConfig, 'execution-planner');
  await bootstrapKafkaService({
    module: plannerModule(config),
    service: 'execution-planner',
    groupId: PLANNER_GROUP_ID,
    healthPort: config.HEALTH_PORT,
    prepare: () => prepareDatabase(plannerDatabaseOptions(config.DATABASE_URL)),
  });
}

main().catch(() => process.exit(1)); // bootstrapKafkaService logged the cause
