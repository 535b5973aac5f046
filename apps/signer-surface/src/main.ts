import './instrument';
import { bootstrapKafkaService } from '@swapgw/messaging';
import { prepareOrCheckDatabase } from '@swapgw/persistence';
import { loadConfigOrExit } from '@swapgw/runtime';
import { AppModule, SERVICE_NAME } from './app.module';
import { SignerSurfaceEnvironment } from './families/families';
import { signerDatabaseOptions } from './database/signer-database';

async function main(): Promise<void> {
  const config = loadConfigOrExit(SignerSurfaceEnvironment, SERVICE_NAME); // validated before the module is built
  await bootstrapKafkaService({
    module: AppModule.forRoot(config),
    config,
    service: SERVICE_NAME,
    groupId: SERVICE_NAME,
    healthPort: config.HEALTH_PORT,
    prepare: () => prepareOrCheckDatabase(signerDatabaseOptions(config.databaseUrl), config.MIGRATE_ON_START),
  });
}

main().catch(() => process.exit(1)); // bootstrapKafkaService logged the cause
