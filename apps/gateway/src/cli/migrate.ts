import 'reflect-metadata';
import { revertLastMigration } from '@swapgw/persistence';
import { loadConfigOrExit } from '@swapgw/runtime';
import { gatewayDatabaseOptions } from '../database/gateway-data-source';
import { prepareDatabase } from '@swapgw/persistence';
import { GatewayCliConfig } from './cli-config';

/** `migrate.js up` applies pending migrations of the gateway schema; `revert` undoes the last one. */
async function main(): Promise<void> {
  const direction = process.argv[2] ?? 'up';
  const config = loadConfigOrExit(GatewayCliConfig, 'gateway-migrate');
  const options = gatewayDatabaseOptions(config.databaseUrl);
  if (direction === 'up') await prepareDatabase(options);
  else if (direction === 'revert') await revertLastMigration(options);
  else throw new Error(`unknown direction "${direction}" (up | revert)`);
  process.stdout.write(`gateway migrations: ${direction} done\n`);
}

main().catch((error: Error) => {
  process.stderr.write(`migrate: ${error.message}\n`);
  process.exit(1);
});
