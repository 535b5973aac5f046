// TypeORM's decorators read metadata through reflect-metadata, which Nest loads in the apps but nothing loads here.
import 'reflect-metadata';
import { prepareDatabase, revertLastMigration } from '@swapgw/persistence';
import { loadConfigOrExit } from '@swapgw/runtime';
import { SignerSurfaceConfig } from '../config/signer-surface.config';
import { signerDatabaseOptions } from '../database/signer-database';

/** `node dist/apps/signer-surface/src/cli/migrate.js up|revert` (Nx targets migrate, migrate:revert). */
async function main(): Promise<void> {
  const config = loadConfigOrExit(SignerSurfaceConfig, 'signer-surface');
  const direction = process.argv[2] ?? 'up';
  if (direction === 'up') await prepareDatabase(signerDatabaseOptions(config.databaseUrl));
  else if (direction === 'revert') await revertLastMigration(signerDatabaseOptions(config.databaseUrl));
  else throw new Error(`Unknown direction ${direction}: use up or revert`);
  process.stdout.write(`signer-surface migrations: ${direction} done\n`);
}

main().catch((error: Error) => {
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
});
