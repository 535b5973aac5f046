import 'reflect-metadata';
import { prepareDatabase, revertLastMigration } from '@swapgw/persistence';
import { loadConfigOrExit } from '@swapgw/runtime';
import { LimitOrderServiceConfig } from '../config/limit-order-service.config';
import { limitOrderDatabaseOptions } from '../database/limit-order-database';

/** `migrate.js up` runs pending migrations of the limit_order schema; `migrate.js revert` undoes the last. */
async function main(direction: string | undefined): Promise<void> {
  const config = loadConfigOrExit(LimitOrderServiceConfig, 'limit-order-service');
  const options = limitOrderDatabaseOptions(config.databaseUrl);
  if (direction === 'up') await prepareDatabase(options);
  else if (direction === 'revert') await revertLastMigration(options);
  else throw new Error('usage: migrate.js up|revert');
  process.stdout.write(`limit-order-service migrations: ${direction} done\n`);
}

main(process.argv[2]).catch((error: Error) => {
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
});
