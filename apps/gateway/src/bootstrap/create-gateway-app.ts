import { DynamicModule, ForwardReference, Logger, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { answerClientError, frameworkErrorAnswer } from '../common/http/client-error';
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { OpenAPIObject } from '@nestjs/swagger';
import type { FastifyInstance } from 'fastify';
import {
  checkKafkaSecurity,
  ensureTopics,
  consumerConcurrencyOf,
  kafkaMicroserviceOptions,
  topicsToEnsure,
} from '@swapgw/messaging';
import { cacheValidationMetadata, JsonLogger, withTimeout } from '@swapgw/runtime';
import { AppModule } from '../app.module';
import { AcceptSockets } from '../common/http/accept-sockets';
import { EdgeReads } from '../common/http/edge-reads';
import { edgeServerFactory, installHttpShell } from '../common/http/http-shell';
import { RouteTable } from '../common/http/route-table';
import { GatewayConfig } from '../config/gateway.config';
import { gatewayDatabaseOptions } from '../database/gateway-data-source';
import { prepareOrCheckDatabase } from '@swapgw/persistence';
import { gatewayKafkaSettings } from '../gateway-core.module';
import { acceptQueueMetrics } from '../metrics/accept-queue-metrics';
import { setupOpenApi } from '../openapi/openapi-document';

export const API_PREFIX = 'api/v1';

export interface GatewayApp {
  app: NestFastifyApplication;
  routes: RouteTable;
  openApi: OpenAPIObject;
  /**
   * Starts the Kafka consumers of feature modules (resolves once they joined). Separate from
   * creation so that main.ts can serve HTTP (and a 503 health) while Kafka is still away: kafkajs
   * retries its first connection for minutes.
   */
  startConsumers(): Promise<void>;
  /** Serves HTTP on HOST:PORT (or `port`, 0 for any free one) with HTTP_ACCEPT_SOCKETS listening sockets. */
  listen(port?: number): Promise<void>;
}

export interface CreateGatewayAppOptions {
  /** Modules added next to the feature modules (tests register test-only controllers this way). */
  extraModules?: Array<Type<unknown> | DynamicModule | ForwardReference>;
  /** Migrations and topics are prepared unless false (a second instance in a test may skip them). */
  prepare?: boolean;
}

const logger = new Logger('Bootstrap');

/**
 * The gateway's consumers (the swap read model's projector above all) share the PostgreSQL pool
 * with the HTTP requests, and every message handled holds a connection for its transaction. With
 * the suite's default of 64 in flight, a burst of swap events took the whole pool, and quotes and
 * builds waited seconds behind projections for a connection (issue 44: every build answered within
 * 5 s). So the consumers handle at most a quarter of the pool at once (5 of the default 20): still
 * hundreds of events a second, with the rest of the pool kept for the requests. KAFKA_CONSUMER_*
 * set in the environment win.
 */
export function gatewayConsumerConcurrency(poolSize: number): { perProcess: number } {
  return { perProcess: Math.max(1, Math.floor(poolSize / 4)) };
}

/** kafkajs retries for minutes when no broker answers; start (degraded) well before that. */
const ENSURE_TOPICS_BOUND_MS = 30_000;

/**
 * Everything between the config and a listening gateway, shared by main.ts and the e2e tests:
 * migrations, Kafka topics, the Nest app on Fastify with the HTTP shell, OpenAPI, and the Kafka
 * consumer of the swap read-model projector (SwapModule's @EventPattern handler, always part of
 * AppModule). Does not listen, and does not start the consumer (see startConsumers).
 */
export async function createGatewayApp(
  config: GatewayConfig,
  options: CreateGatewayAppOptions = {},
): Promise<GatewayApp> {
  cacheValidationMetadata();
  if (options.prepare !== false) {
    await prepareOrCheckDatabase(gatewayDatabaseOptions(config.databaseUrl), config.MIGRATE_ON_START);
    // Wrong Kafka credentials or certificates are a setting to fix, not an outage to ride out: stop
    // with the setting's name rather than start degraded and never be ready.
    await checkKafkaSecurity(gatewayKafkaSettings(config));
    // Topics are shared by the suite; if Kafka is away now the gateway still starts (its requests
    // answer 503 and /health says degraded) rather than crash-loop.
    await withTimeout(
      ensureTopics(gatewayKafkaSettings(config), topicsToEnsure(gatewayKafkaSettings(config), 'gateway')),
      ENSURE_TOPICS_BOUND_MS,
      `no answer within ${ENSURE_TOPICS_BOUND_MS} ms`,
    ).catch((error: Error) =>
      logger.error({ msg: 'could not ensure Kafka topics at start', error: error.message }),
    );
  }

  // The edge of cached reads is a Nest provider: made with the app, after the adapter that needs it.
  const made: { edge?: EdgeReads } = {};
  const adapter = new FastifyAdapter({
    serverFactory: edgeServerFactory(() => made.edge),
    bodyLimit: config.BODY_LIMIT_BYTES,
    logger: false,
    return503OnClosing: true,
    clientErrorHandler: answerClientError,
    // Typed structurally: @nestjs/platform-fastify bundles its own fastify type declarations.
    frameworkErrors: (
      _error: unknown,
      request: { headers: IncomingHttpHeaders },
      reply: { raw: ServerResponse; hijack(): unknown },
    ) => {
      const answer = frameworkErrorAnswer(request.headers);
      reply.hijack();
      reply.raw.writeHead(answer.status, {
        'content-type': 'application/json; charset=utf-8',
        'content-length': Buffer.byteLength(answer.body),
        'x-request-id': answer.requestId,
      });
      reply.raw.end(answer.body);
    },
  });
  const app = await NestFactory.create<NestFastifyApplication>(
    AppModule.register(config, options.extraModules),
    adapter,
    {
      bodyParser: false,
      logger: new JsonLogger('gateway', config.LOG_LEVEL),
      // A module that cannot be built rejects (main.ts logs it and exits; an int-spec fails alone)
      // instead of Nest calling process.exit itself.
      abortOnError: false,
    },
  );
  const routes = app.get(RouteTable);
  // @nestjs/platform-fastify bundles its own copy of fastify: same API, distinct type declarations.
  const fastify = app.getHttpAdapter().getInstance() as unknown as FastifyInstance;
  made.edge = app.get(EdgeReads);
  installHttpShell(fastify, routes, made.edge);
  const acceptSockets = new AcceptSockets(config.HTTP_ACCEPT_SOCKETS);
  acceptSockets.closeWith(fastify);
  app.setGlobalPrefix(API_PREFIX);
  const openApi = setupOpenApi(app, fastify);

  // The swap read-model projector (SwapModule) consumes swap.events through this microservice.
  app.connectMicroservice(
    kafkaMicroserviceOptions(gatewayKafkaSettings(config), config.KAFKA_GROUP_ID, {
      concurrency: { ...gatewayConsumerConcurrency(config.DB_POOL_SIZE), ...consumerConcurrencyOf(config) },
    }),
  );
  await app.init();
  return {
    app,
    routes,
    openApi,
    startConsumers: async () => {
      await app.startAllMicroservices();
    },
    listen: async (port = config.PORT) => {
      const server = app.getHttpServer();
      await acceptSockets.listen((address) => app.listen(address), server, {
        port,
        host: config.HOST,
        backlog: config.HTTP_BACKLOG,
      });
      acceptQueueMetrics.readFrom((server.address() as AddressInfo).port);
    },
  };
}
