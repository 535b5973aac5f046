import { DynamicModule, Global, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR, APP_PIPE, DiscoveryModule } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { KafkaSettings, kafkaSettingsOf } from '@swapgw/messaging';
import { Clock, SystemClock } from '@swapgw/runtime';
import { ApiKeyGuard } from './auth/api-key.guard';
import { AuthModule } from './auth/auth.module';
import { ApiExceptionFilter } from './common/errors/api-exception.filter';
import { EnvelopeInterceptor } from './common/envelope/envelope.interceptor';
import { EdgeReads } from './common/http/edge-reads';
import { RouteTable } from './common/http/route-table';
import { createGatewayValidationPipe } from './common/validation/validation-pipe';
import { GatewayConfig } from './config/gateway.config';
import { gatewayDataSourceOptions } from './database/gateway-data-source';
import { HealthModule } from './health/health.module';
import { IdempotentResponseRepository } from './idempotency/idempotent-response.repository';
import { GatewayMessagingModule } from './messaging/gateway-messaging.module';
import { MetricsModule } from './metrics/metrics.module';
import { RateLimitGuard } from './rate-limit/rate-limit.guard';
import { RateLimitWindowRepository } from './rate-limit/rate-limit-window.repository';
import { RateLimiter } from './rate-limit/rate-limiter.service';

/** The gateway's Kafka settings, from its validated config. */
export const gatewayKafkaSettings = (config: GatewayConfig): KafkaSettings =>
  kafkaSettingsOf(config, 'gateway');

/**
 * The HTTP shell every feature module relies on: config, database, Kafka request-reply
 * (ServiceClient), authentication, rate limits, idempotency, envelope, validation, errors, health.
 * Global providers, so features just inject GatewayConfig, DataSource, ServiceClient, IdempotentResponseRepository.
 */
@Global()
@Module({})
export class GatewayCoreModule {
  static forRoot(config: GatewayConfig): DynamicModule {
    return {
      module: GatewayCoreModule,
      imports: [
        TypeOrmModule.forRoot({
          ...gatewayDataSourceOptions(config.databaseUrl, [], config.DB_POOL_SIZE),
          // Entities come from each module's TypeOrmModule.forFeature([...]).
          autoLoadEntities: true,
          retryAttempts: 2,
          retryDelay: 1000,
        }),
        GatewayMessagingModule.forRoot(
          gatewayKafkaSettings(config),
          config.KAFKA_GROUP_ID,
          config.COMMAND_SEND_TIMEOUT_MS,
        ),
        AuthModule,
        HealthModule,
        MetricsModule,
        // The OpenAPI document finds the controllers through its DiscoveryService.
        DiscoveryModule,
      ],
      providers: [
        { provide: GatewayConfig, useValue: config },
        { provide: Clock, useClass: SystemClock },
        { provide: RouteTable, useValue: new RouteTable() },
        RateLimitWindowRepository,
        RateLimiter,
        IdempotentResponseRepository,
        EdgeReads,
        { provide: APP_PIPE, useFactory: createGatewayValidationPipe },
        { provide: APP_FILTER, useClass: ApiExceptionFilter },
        // Guards run in this order: who is calling, then whether they may call now.
        { provide: APP_GUARD, useClass: ApiKeyGuard },
        { provide: APP_GUARD, useClass: RateLimitGuard },
        // The envelope wraps what handlers return, and what @Idempotent() handlers' own interceptor
        // (bound by the decorator, inside the global ones) returns or replays.
        { provide: APP_INTERCEPTOR, useClass: EnvelopeInterceptor },
      ],
      exports: [GatewayConfig, Clock, RouteTable, RateLimiter, IdempotentResponseRepository, EdgeReads],
    };
  }
}
