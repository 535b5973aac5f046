import './instrument';
import { bootstrapKafkaService } from '@swapgw/messaging';
import { prepareOrCheckDatabase } from '@swapgw/persistence';
import { loadConfigOrExit } from '@swapgw/runtime';
import { AppModule, CONSUMER_LANES, SERVICE_NAME } from './app.module';
import { QuoteServiceConfig } from './config/quote-service.config';
import { quoteDatabaseOptions } from './database/quote-database';

async function main(): Promise<void> {
  const config = loadConfigOrExit(QuoteServiceConfig, SERVICE_NAME);
  await bootstrapKafkaService({
    module: AppModule.forRoot(config),
    config,
    service: SERVICE_NAME,
    groupId: SERVICE_NAME,
    healthPort: config.HEALTH_PORT,
    // Every handler here is a read or an I/O-bound quote, and requests come keyed by fresh ids:
    // all partitions of catalog.requests and quote.requests are worked at once.
    partitionsConsumedConcurrently: 12,
    lanes: CONSUMER_LANES,
    prepare: () => prepareOrCheckDatabase(quoteDatabaseOptions(config.databaseUrl), config.MIGRATE_ON_START),
  });
}

main().catch(() => process.exit(1)); // bootstrapKafkaService logged the cause
