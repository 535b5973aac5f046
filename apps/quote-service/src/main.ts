import { bootstrapKafkaService } from '@swapgw/messaging';
import { prepareDatabase } from '@swapgw/persistence';
import { loadConfigOrExit } from '@swapgw/runtime';
import { QUOTE_GROUP_ID, quoteServiceModule } from './app.module';
import { QuoteServiceConfig } from './config/quote-service.config';
import { quoteDatabaseOptions } from './database/quote-database';

async function main(): Promise<void> {
  const config = loadConfigOrExit(QuoteServiceConfig, 'quote-service');
  await bootstrapKafkaService({
    module: quoteServiceModule(config),
    service: 'quote-service',
    groupId: QUOTE_GROUP_ID,
    healthPort: config.HEALTH_PORT,
    prepare: () => prepareDatabase(quoteDatabaseOptions(config.DATABASE_URL)),
  });
}

main().catch(() => process.exit(1)); // bootstrapKafkaService logged the cause
