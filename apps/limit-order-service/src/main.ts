import './instrument';
import { bootstrapKafkaService } from '@swapgw/messaging';
import { prepareOrCheckDatabase } from '@swapgw/persistence';
import { loadConfigOrExit } from '@swapgw/runtime';
import { AppModule, SERVICE_NAME } from './app.module';
import { LimitOrderServiceConfig } from './config/limit-order-service.config';
import { limitOrderDatabaseOptions } from './database/limit-order-database';

async function main(): Promise<void> {
  const config = loadConfigOrExit(LimitOrderServiceConfig, SERVICE_NAME);
  await bootstrapKafkaService({
    module: AppModule.forRoot(config),
    config,
    service: SERVICE_NAME,
    groupId: SERVICE_NAME,
    healthPort: config.HEALTH_PORT,
    prepare: () =>
      prepareOrCheckDatabase(limitOrderDatabaseOptions(config.databaseUrl), config.MIGRATE_ON_START),
  });
}

main().catch(() => process.exit(1)); // bootstrapKafkaService logged the cause
