import { Module } from '@nestjs/common';
import { HttpMetricsInstaller } from './http-metrics.hook';
import { MetricsController } from './metrics.controller';

/** Prometheus metrics of the gateway: GET /api/v1/metrics and the HTTP request histogram. */
@Module({
  controllers: [MetricsController],
  providers: [HttpMetricsInstaller],
})
export class MetricsModule {}
