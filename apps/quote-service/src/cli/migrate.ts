// TypeORM's decorators read metadata through reflect-metadata, which Nest loads in the apps but nothing loads here.
import 'reflect-metadata';
import { prepareDatabase, revertLastMigration } from '@swapgw/persistence';
import { loadConfigOrExit } from '@swapgw/runtime';
import { QuoteServiceConfig } from '../config/quote-service.config';
import { quoteDatabaseOptions } from '../database/quote-database';

/** `node dist/apps/quote-service/src/cli/migrate.js up|revert` (Nx targets migrate, migrate:revert). */
async function main(): Promise<void> {
  const config = loadConfigOrExit(QuoteServiceConfig, 'quote-service');
  const direction = process.argv[2] ?? 'up';
  if (direction === 'up') await prepareDatabase(quoteDatabaseOptions(config.databaseUrl));
  else if (direction === 'revert') await revertLastMigration(quoteDatabaseOptions(config.databaseUrl));
  else throw new Error(`Unknown direction ${direction}: use up or revert`);
  process.stdout.write(`quote-service migrations: ${direction} done\n`);
}

main().catch((error: Error) => {
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
});
