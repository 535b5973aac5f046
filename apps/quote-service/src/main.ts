import './instrument';
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
    // Every handler here is a read or an I/O-bound quote, and requests come keyed by fresh ids:
    // all partitions of catalog.requests and quote.requests are worked at once.
    partitionsConsumedConcurrently: 12,
    prepare: () => prepareDatabase(quoteDatabaseOptions(config.DATABASE_URL)),
  });
}

main().catch(() => process.exit(1)); // bootstrapKafkaService logged the cause
