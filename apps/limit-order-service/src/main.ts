import 'reflect-metadata';
import './instrument';
import { bootstrapKafkaService } from '@swapgw/messaging';
import { prepareDatabase } from '@swapgw/persistence';
import { loadConfigOrExit } from '@swapgw/runtime';
import { LimitOrderServiceConfig } from './config/limit-order-service.config';
import { limitOrderDatabaseOptions } from './database/limit-order-database';

async function main(): Promise<void> {
  // Validate before importing the module, which reads the same config: a bad variable exits 78.
  const config = loadConfigOrExit(LimitOrderServiceConfig, 'limit-order-service');
  const { AppModule, LIMIT_ORDER_SERVICE } = await import('./app.module');
  await bootstrapKafkaService({
    module: AppModule,
    service: LIMIT_ORDER_SERVICE,
    groupId: LIMIT_ORDER_SERVICE,
    healthPort: config.HEALTH_PORT,
    prepare: () => prepareDatabase(limitOrderDatabaseOptions(config.DATABASE_URL)),
  });
}

main().catch((error: Error) => {
  process.stderr.write(`${JSON.stringify({ level: 'fatal', service: 'limit-order-service', msg: error.message, stack: error.stack })}\n`);
  process.exit(1);
});
