import { Module } from '@nestjs/common';
import { HealthController } from './health.controller';
import { HealthService } from './health.service';

/** GET /health; the services' liveness comes from ServiceHeartbeats (GatewayMessagingModule). */
@Module({ controllers: [HealthController], providers: [HealthService] })
export class HealthModule {}
