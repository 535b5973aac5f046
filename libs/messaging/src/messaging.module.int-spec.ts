import { Controller, DynamicModule, INestMicroservice, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { prepareDatabase, serviceDataSourceOptions, ServiceDataSourceOptions } from '@swapgw/persistence';
import { GlobalClockModule, SystemClock } from '@swapgw/runtime';
import { createKafkaMicroservice } from './bootstrap/create-kafka-microservice';
import { MessagingModule } from './messaging.module';
import { CreateMessagingTables1763700000000 } from './outbox/create-messaging-tables.migration';
import { OutboxMessageEntity } from './outbox/outbox-message.entity';
import { OutboxRelay } from './outbox/outbox-relay';
import { ProcessedEventEntity } from './outbox/processed-event.entity';
import {
  dropSchema,
  testDatabaseUrl,
  testKafkaSettings,
  uniqueSuffix,
} from './testing/messaging-test-support';

const suffix = uniqueSuffix();
const schema = `msg_lifecycle_${suffix}`;

@Controller()
class NoHandlersController {}

describe('MessagingModule in an app with TypeORM', () => {
  const settings = testKafkaSettings('itest-lifecycle');
  const database: ServiceDataSourceOptions = {
    url: testDatabaseUrl(),
    schema,
    entities: [OutboxMessageEntity, ProcessedEventEntity],
    migrations: [CreateMessagingTables1763700000000],
    poolSize: 2,
    applicationName: 'messaging-it-lifecycle',
  };

  beforeAll(() => prepareDatabase(database));
  afterAll(() => dropSchema(schema));

  it('stops the outbox relay before TypeORM closes the pool, and the Kafka server before both', async () => {
    // The shape of every service's AppModule.forRoot(config): a global dynamic module importing
    // TypeORM first, then messaging (Nest orders the shutdown hooks of global modules on its own).
    @Module({})
    class LifecycleAppModule {}
    const appModule: DynamicModule = {
      module: LifecycleAppModule,
      global: true,
      imports: [
        TypeOrmModule.forRoot(serviceDataSourceOptions(database)),
        GlobalClockModule.of(new SystemClock()),
        MessagingModule.forRoot({
          clientId: 'itest-lifecycle',
          groupId: `itest-lifecycle-${suffix}`,
          settings,
          outbox: true,
        }),
      ],
      controllers: [NoHandlersController],
    };

    const app: INestMicroservice = await createKafkaMicroservice(
      appModule,
      settings,
      `itest-lifecycle-${suffix}`,
      { logger: ['error'] },
    );
    await app.listen();

    const steps: string[] = [];
    const record = <T extends object, K extends keyof T>(target: T, method: K, step: string) => {
      const original = target[method] as unknown as (...args: unknown[]) => Promise<unknown>;
      (target[method] as unknown) = async (...args: unknown[]) => {
        const result = await original.apply(target, args);
        steps.push(step);
        return result;
      };
    };
    const dataSource = app.get(DataSource);
    const server = (app as unknown as { serverInstance: { close(): Promise<void> } }).serverInstance;
    record(server, 'close', 'kafka server closed');
    record(app.get(OutboxRelay), 'stop', 'outbox relay stopped');
    const destroy = dataSource.destroy.bind(dataSource);
    dataSource.destroy = async () => {
      steps.push('database pool closing');
      await destroy();
    };

    await app.close();

    expect(steps).toEqual(['kafka server closed', 'outbox relay stopped', 'database pool closing']);
    expect(dataSource.isInitialized).toBe(false);
  });
});
