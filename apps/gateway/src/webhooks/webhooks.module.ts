import { Module } from '@nestjs/common';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import { WebhookDispatcher } from './webhook-dispatcher';
import { WebhookEventsConsumer } from './webhook-events.consumer';
import { WebhookOwners } from './webhook-owners';
import { WebhooksController } from './webhooks.controller';
import { WebhooksService } from './webhooks.service';
import { WebhooksRepository } from './webhooks.repository';

/**
 * Signed webhooks per API key owner: the routes (register, list, delete, delivery log, redeliver),
 * the consumer that writes a delivery row per subscribed webhook in the transaction recording each
 * swap / limit-order event (its own consumer group), and the dispatcher that sends due deliveries
 * with retries. The consumer and dispatcher run only with WEBHOOKS_ENABLED (default true).
 */
@Module({
  controllers: [WebhooksController],
  providers: [
    WebhooksRepository,
    WebhookDeliveriesRepository,
    WebhooksService,
    WebhookDispatcher,
    WebhookEventsConsumer,
    WebhookOwners,
  ],
})
export class WebhooksModule {}
