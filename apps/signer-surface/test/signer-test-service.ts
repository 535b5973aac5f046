// Runs signer-surface's real feature modules in a Nest Kafka microservice on test-only topics, a
// fresh schema and the given chains, so that specs exercise Kafka, PostgreSQL and anvil for real
// without touching the topics and schema of a signer-surface that may run on the same machine.
import { Controller, DynamicModule, INestMicroservice, Module, Type } from '@nestjs/common';
import { Ctx, KafkaContext, MessagePattern, Payload } from '@nestjs/microservices';
import { Test } from '@nestjs/testing';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ChainRegistry } from '@swapgw/chains';
import { deadLetterTopicOf, replyTopicOf } from '@swapgw/contracts';
import {
  createEnvelope,
  ensureTopics,
  kafkaMicroserviceOptions,
  KafkaSettings,
  MessagingModule,
  RequestReplyClient,
  TopicEvents,
} from '@swapgw/messaging';
import { prepareDatabase, ServiceDataSourceOptions, serviceDataSourceOptions } from '@swapgw/persistence';
import { Clock, loadConfig, SystemClock } from '@swapgw/runtime';
import { testEnv } from '@swapgw/testing';
import { Kafka, logLevel } from 'kafkajs';
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { SignerSurfaceConfig } from '../src/config/signer-surface.config';
import { signerDatabaseOptions } from '../src/database/signer-database';
import { SIGNING_EVENTS_TOPIC } from '../src/signing/signing-events.outbox';
import { SigningModule } from '../src/signing/signing.module';
import { SigningController } from '../src/signing/signing.controller';
import { GAS_SPONSOR, type GasSponsor } from '../src/sponsorship/gas-sponsor';
import { SIGNING_FAMILIES, SignerSurfaceEnvironment } from '../src/families/families';
import { RelayerGasSponsor } from '../src/families/relayer-gas-sponsor';
import { StatusModule } from '../src/status/status.module';

export interface ReceivedEvent {
  type: string;
  aggregateId: string;
  eventId: string;
  payload: Record<string, unknown>;
}

export interface SignerTestService {
  schema: string;
  dataSource: DataSource;
  events: ReceivedEvent[];
  sendCommand(type: string, swapId: string, payload: object): Promise<void>;
  request<T>(type: string, aggregateId: string, payload: object): Promise<T>;
  close(): Promise<void>;
}

/** AppModule's shape on this run's schema, Kafka settings and controller, over the same feature modules. */
@Module({})
class SignerTestModule {
  static forRun(run: {
    config: SignerSurfaceConfig;
    database: ServiceDataSourceOptions;
    settings: KafkaSettings;
    groupId: string;
    controller: Type<unknown>;
  }): DynamicModule {
    return {
      module: SignerTestModule,
      global: true,
      providers: [
        { provide: SignerSurfaceConfig, useValue: run.config },
        { provide: Clock, useClass: SystemClock },
      ],
      exports: [SignerSurfaceConfig, Clock],
      imports: [
        TypeOrmModule.forRoot(serviceDataSourceOptions(run.database)),
        MessagingModule.forRoot({
          clientId: run.settings.clientId,
          groupId: run.groupId,
          outbox: true,
          settings: run.settings,
          relay: { sweepIntervalMs: 200 },
        }),
        SigningModule.register(SIGNING_FAMILIES),
        StatusModule,
      ],
      controllers: [run.controller],
    };
  }
}

export interface SignerTestOptions {
  /**
   * Stands in for the relayers' GasSponsor (`relayers()`: the real RelayerGasSponsor, once the
   * module is built): a spec drives what the signing flow hears about sponsored transactions
   * without reaching into the relaying code.
   */
  gasSponsor?: (relayers: () => GasSponsor) => GasSponsor;
}

export async function startSignerTestService(
  registry: ChainRegistry,
  env: Record<string, string> = {},
  options: SignerTestOptions = {},
): Promise<SignerTestService> {
  const infra = testEnv();
  const suffix = `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
  const schema = `signer_it_${suffix}`;
  const topics = {
    commands: `itest.signing.commands.${suffix}`,
    events: `itest.signing.events.${suffix}`,
    requests: `itest.signing.requests.${suffix}`,
  };
  const settings: KafkaSettings = {
    brokers: infra.brokers,
    clientId: `signer-it-${suffix}`,
    instanceId: suffix,
  };
  await ensureTopics(settings, [
    { name: topics.commands, partitions: 2 },
    { name: deadLetterTopicOf(topics.commands), partitions: 1 },
    { name: topics.events, partitions: 2 },
    { name: topics.requests, partitions: 2 },
    { name: replyTopicOf(topics.requests), partitions: 2 },
    { name: deadLetterTopicOf(topics.requests), partitions: 1 },
  ]);
  const config = loadConfig(SignerSurfaceEnvironment, {
    DATABASE_URL: infra.databaseUrl,
    KAFKA_BROKERS: infra.kafkaBrokers,
    CONFIRMATION_POLL_MS: '200',
    WAITING_POLL_MS: '200',
    RPC_TIMEOUT_MS: '3000',
    ...env,
  });
  const dbOptions = signerDatabaseOptions(config.DATABASE_URL, 5, schema);
  await prepareDatabase(dbOptions);

  // The production controller with its handlers re-bound to this run's topics.
  @Controller()
  class TestSigningController extends SigningController {
    @TopicEvents(topics.commands)
    override onSigningCommand(@Payload() message: unknown, @Ctx() ctx: KafkaContext): Promise<void> {
      return super.onSigningCommand(message, ctx);
    }

    @MessagePattern(topics.requests)
    override onSigningRequest(@Payload() message: unknown, @Ctx() ctx: KafkaContext) {
      return super.onSigningRequest(message, ctx);
    }
  }

  const builder = Test.createTestingModule({
    imports: [
      SignerTestModule.forRun({
        config,
        database: dbOptions,
        settings,
        groupId: `signer-it-${suffix}`,
        controller: TestSigningController,
      }),
    ],
  })
    // The given chains, and signing events on this run's topic.
    .overrideProvider(ChainRegistry)
    .useValue(registry)
    .overrideProvider(SIGNING_EVENTS_TOPIC)
    .useValue(topics.events);
  const built: { relayers?: GasSponsor } = {};
  if (options.gasSponsor) {
    // A value, not a factory injecting RelayerGasSponsor: GAS_SPONSOR is a `useExisting` alias, and
    // Nest resolves an alias overridden by a factory to the factory's first dependency instead.
    const standIn = options.gasSponsor(() => {
      if (!built.relayers) throw new Error('RelayerGasSponsor is not built yet');
      return built.relayers;
    });
    builder.overrideProvider(GAS_SPONSOR).useValue(standIn);
  }
  const moduleRef = await builder.compile();
  built.relayers = moduleRef.get(RelayerGasSponsor, { strict: false });
  const app: INestMicroservice = moduleRef.createNestMicroservice({
    ...kafkaMicroserviceOptions(settings, `signer-it-${suffix}`),
    logger: ['error', 'warn'],
  });
  await app.listen();

  const kafka = new Kafka({
    clientId: `${settings.clientId}-probe`,
    brokers: settings.brokers,
    logLevel: logLevel.NOTHING,
  });
  const producer = kafka.producer({ allowAutoTopicCreation: false });
  await producer.connect();
  const events: ReceivedEvent[] = [];
  const reader = kafka.consumer({ groupId: `signer-it-reader-${suffix}`, allowAutoTopicCreation: false });
  await reader.connect();
  await reader.subscribe({ topic: topics.events, fromBeginning: true });
  await reader.run({
    eachMessage: async ({ message }) => {
      if (message.value) events.push(JSON.parse(message.value.toString()) as ReceivedEvent);
    },
  });
  // The test's requests and commands are stamped by the service's own Clock, as its peers' would be.
  const clock = app.get(Clock);
  const requester = new RequestReplyClient(settings, [topics.requests], clock, { defaultTimeoutMs: 20_000 });
  await requester.connect();

  return {
    schema,
    dataSource: app.get(DataSource),
    events,
    async sendCommand(type, swapId, payload) {
      const envelope = createEnvelope(type, swapId, payload, clock);
      await producer.send({
        topic: topics.commands,
        acks: -1,
        messages: [{ key: swapId, value: JSON.stringify(envelope) }],
      });
    },
    request: (type, aggregateId, payload) => requester.request(topics.requests, type, aggregateId, payload),
    async close() {
      await Promise.allSettled([requester.close(), reader.disconnect(), producer.disconnect()]);
      await app.close();
      const client = new Client({ connectionString: config.DATABASE_URL });
      await client.connect();
      try {
        await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      } finally {
        await client.end();
      }
    },
  };
}
