import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { KAFKA_SETTINGS, KafkaHealthProbe, KafkaSettings } from '@swapgw/messaging';
import { GatewayConfig } from '../config/gateway.config';
import { ServiceClient } from '../messaging/service-client';
import type { HealthScope } from './health.dto';
import { ServiceChecks, ServiceHeartbeats } from './service-heartbeats';

export type CheckStatus = 'up' | 'down';

export interface GatewayHealth {
  status: 'ok' | 'degraded';
  uptimeSeconds: number;
  checks: { database: CheckStatus; kafka: CheckStatus; services: ServiceChecks };
}

/**
 * `degraded` when PostgreSQL or Kafka is down, or (scope `suite`) a service is not `up`: `down`, or
 * `unknown`, not heard from yet by a gateway that just started. `ok` means the whole suite takes
 * requests now: a flood sent at the first `ok` finds every service ready (issue 44, "ready means
 * ready"), not one that has not said so yet.
 */
export function healthStatusOf(
  checks: GatewayHealth['checks'],
  scope: HealthScope = 'suite',
): GatewayHealth['status'] {
  if (checks.database !== 'up' || checks.kafka !== 'up') return 'degraded';
  if (scope === 'instance') return 'ok';
  return Object.values(checks.services).every((s) => s === 'up') ? 'ok' : 'degraded';
}

/**
 * Asks PostgreSQL and Kafka, each within HEALTH_CHECK_TIMEOUT_MS, whether they answer right now.
 * Kafka counts as up only while this instance can also receive replies (its request-reply client
 * joined its group): after a dead client was replaced, the instance is not ready until the new one is.
 * The Kafka services' liveness comes from their heartbeats (ServiceHeartbeats); a service that is
 * not `up` (`down`, or `unknown` just after this gateway started) makes the suite `degraded`.
 */
@Injectable()
export class HealthService implements OnModuleDestroy {
  /** One Kafka admin connection for every health call (GET /health is public). */
  private readonly kafkaProbe: KafkaHealthProbe;

  constructor(
    private readonly dataSource: DataSource,
    @Inject(KAFKA_SETTINGS) kafka: KafkaSettings,
    @Inject(GatewayConfig) private readonly config: GatewayConfig,
    private readonly services: ServiceClient,
    private readonly heartbeats: ServiceHeartbeats,
  ) {
    this.kafkaProbe = new KafkaHealthProbe(kafka, config.HEALTH_CHECK_TIMEOUT_MS);
  }

  async onModuleDestroy(): Promise<void> {
    await this.kafkaProbe.close();
  }

  /**
   * `suite`: ok only when PostgreSQL, Kafka and every service are up. `instance`: ok when this
   * instance can serve (PostgreSQL and Kafka), whatever the services: for a readiness probe, since
   * a stopped service must delay work (builds wait in swap.commands), not take the API away.
   */
  async check(scope: HealthScope = 'suite'): Promise<GatewayHealth> {
    const [database, kafka] = await Promise.all([this.databaseStatus(), this.kafkaStatus()]);
    const checks = { database, kafka, services: this.heartbeats.statuses() };
    return { status: healthStatusOf(checks, scope), uptimeSeconds: Math.floor(process.uptime()), checks };
  }

  private async databaseStatus(): Promise<CheckStatus> {
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        this.dataSource.query('SELECT 1'),
        new Promise(
          (_, reject) =>
            (timer = setTimeout(() => reject(new Error('timeout')), this.config.HEALTH_CHECK_TIMEOUT_MS)),
        ),
      ]);
      return 'up';
    } catch {
      return 'down';
    } finally {
      clearTimeout(timer);
    }
  }

  private async kafkaStatus(): Promise<CheckStatus> {
    if (!this.services.isReady()) return 'down';
    const health = await this.kafkaProbe.check();
    return health.ok ? 'up' : 'down';
  }
}
