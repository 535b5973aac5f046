import { DynamicModule, Global, Module } from '@nestjs/common';
import { REQUEST_REPLY_TOPICS } from '@swapgw/contracts';
import { KafkaSettings, MessagingModule } from '@swapgw/messaging';
import { ServiceClient } from './service-client';

/** Kafka for the gateway: a request-reply client on the five request topics, and ServiceClient. */
@Global()
@Module({})
export class GatewayMessagingModule {
  static forRoot(settings: KafkaSettings, groupId: string): DynamicModule {
    return {
      module: GatewayMessagingModule,
      imports: [
        MessagingModule.forRoot({
          clientId: 'gateway',
          groupId,
          requestTopics: REQUEST_REPLY_TOPICS,
          settings,
          requestReply: { connectTimeoutMs: 30_000 },
        }),
      ],
      providers: [ServiceClient],
      exports: [ServiceClient],
    };
  }
}
