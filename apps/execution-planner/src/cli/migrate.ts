// TypeORM's decorators read metadata through reflect-metadata, which Nest loads in the apps but nothing loads here.
import 'reflect-metadata';
import { prepareDatabase, revertLastMigration } from '@swapgw/persistence';
import { loadConfigOrExit } from '@swapgw/runtime';
import { plannerDatabaseOptions } from '../database/planner-database';
import { ExecutionPlannerConfig } from '../config/execution-planner.config';

/** `node dist/apps/execution-planner/src/cli/migrate.js up|revert` (Nx targets migrate, migrate:revert). */
async function main(): Promise<void> {
  const config = loadConfigOrExit(ExecutionPlannerConfig, 'execution-planner');
  const direction = process.argv[2] ?? 'up';
  if (direction === 'up') await prepareDatabase(plannerDatabaseOptions(config.databaseUrl));
  else if (direction === 'revert') await revertLastMigration(plannerDatabaseOptions(config.databaseUrl));
  else throw new Error(`Unknown direction ${direction}: use up or revert`);
  process.stdout.write(`execution-planner migrations: ${direction} done\n`);
}

main().catch((error: Error) => {
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
});
