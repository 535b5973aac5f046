import { Module } from '@nestjs/common';
import { HttpMetricsInstaller } from './http-metrics.hook';
import { MetricsServer } from './metrics-server';

/**
 * Prometheus metrics of the gateway: the HTTP request histogram, and GET /metrics on a server of
 * its own (METRICS_PORT), not on the public API port.
 */
@Module({
  providers: [HttpMetricsInstaller, MetricsServer],
  exports: [MetricsServer],
})
export class MetricsModule {}
