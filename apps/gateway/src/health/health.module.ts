import { Module } from '@nestjs/common';
import { HealthController } from './health.controller';
import { HealthService } from './health.service';
import { ServiceHeartbeats } from './service-heartbeats';

/**
 * GET /health, and the services' liveness from their heartbeats (ServiceHeartbeats), which POST
 * /quote also reads to wait longer for a quote-service that is busy rather than away.
 */
@Module({
  controllers: [HealthController],
  providers: [HealthService, ServiceHeartbeats],
  exports: [ServiceHeartbeats],
})
export class HealthModule {}
