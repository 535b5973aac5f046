import {
  DynamicModule,
  Global,
  Inject,
  Injectable,
  Logger,
  Module,
  OnApplicationBootstrap,
  OnApplicationShutdown,
} from '@nestjs/common';
import { ErrorCodes, REQUEST_REPLY_TOPICS } from '@swapgw/contracts';
import { CommandPublisher, KafkaSettings, MessagingModule } from '@swapgw/messaging';
import { Clock } from '@swapgw/runtime';
import { ServiceClient } from './service-client';

/** Connects the command producer at start (a failure only logs: sends connect again) and closes it at shutdown. */
@Injectable()
class CommandPublisherLifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('CommandPublisher');

  constructor(@Inject(CommandPublisher) private readonly commands: CommandPublisher) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.commands
      .connect()
      .catch((error: Error) =>
        this.logger.warn({ msg: 'command producer not connected yet', error: error.message }),
      );
  }

  async onApplicationShutdown(): Promise<void> {
    await this.commands.close();
  }
}

/**
 * Kafka for the gateway: a request-reply client on the five request topics with ServiceClient, and
 * a CommandPublisher for durable commands (swap.build) that Kafka must have before the answer.
 */
@Global()
@Module({})
export class GatewayMessagingModule {
  static forRoot(settings: KafkaSettings, groupId: string, commandTimeoutMs: number): DynamicModule {
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
      providers: [
        ServiceClient,
        {
          provide: CommandPublisher,
          // 503 SERVICE_UNAVAILABLE as the spec says when the command cannot be taken.
          inject: [Clock],
          useFactory: (clock: Clock) =>
            new CommandPublisher(settings, clock, {
              sendTimeoutMs: commandTimeoutMs,
              unavailableAs: ErrorCodes.SERVICE_UNAVAILABLE,
            }),
        },
        CommandPublisherLifecycle,
      ],
      exports: [ServiceClient, CommandPublisher],
    };
  }
}
