import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { HEARTBEAT_SERVICES, HeartbeatService } from '@swapgw/contracts';
import { HeartbeatMonitor, KAFKA_SETTINGS, KafkaSettings, ServiceLiveness } from '@swapgw/messaging';
import { Clock } from '@swapgw/runtime';
import { GatewayConfig } from '../config/gateway.config';
import { serviceLivenessMetrics } from './service-liveness-metrics';

export type ServiceChecks = Record<HeartbeatService, ServiceLiveness>;

/**
 * The Kafka services' liveness as this instance hears it: their heartbeats on `service.heartbeats`
 * (the only way the gateway learns about them: it talks to services over Kafka alone and, in
 * Kubernetes, could not address their pods anyway). Listens in the background from application
 * bootstrap; a service is `down` after SERVICE_HEARTBEAT_TIMEOUT_MS without a beat from any of its
 * instances, and `unknown` until this instance has listened that long.
 */
@Injectable()
export class ServiceHeartbeats implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly monitor: HeartbeatMonitor;

  constructor(
    @Inject(KAFKA_SETTINGS) settings: KafkaSettings,
    @Inject(GatewayConfig) config: GatewayConfig,
    clock: Clock,
  ) {
    this.monitor = new HeartbeatMonitor(settings, {
      services: HEARTBEAT_SERVICES,
      timeoutMs: config.SERVICE_HEARTBEAT_TIMEOUT_MS,
      clock,
    });
  }

  onApplicationBootstrap(): void {
    this.monitor.start();
    serviceLivenessMetrics.readFrom(() => this.statuses());
  }

  async onApplicationShutdown(): Promise<void> {
    serviceLivenessMetrics.readFrom(undefined);
    await this.monitor.stop();
  }

  statuses(): ServiceChecks {
    return this.monitor.statuses() as ServiceChecks;
  }

  statusOf(service: HeartbeatService): ServiceLiveness {
    return this.statuses()[service];
  }

  /** True while `service` is not known to be down: up, or not heard from yet (just after a start). */
  notDown(service: HeartbeatService): () => boolean {
    return () => this.statusOf(service) !== 'down';
  }
}
