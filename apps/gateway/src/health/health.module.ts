import { Module } from '@nestjs/common';
import { HealthController } from './health.controller';
import { HealthService } from './health.service';
import { ServiceHeartbeats } from './service-heartbeats';

@Module({ controllers: [HealthController], providers: [HealthService, ServiceHeartbeats] })
export class HealthModule {}
