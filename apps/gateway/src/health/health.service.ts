import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { KAFKA_SETTINGS, kafkaHealth, KafkaSettings } from '@swapgw/messaging';
import { GatewayConfig } from '../config/gateway.config';
import { ServiceClient } from '../messaging/service-client';

export type CheckStatus = 'up' | 'down';

export interface GatewayHealth {
  status: 'ok' | 'degraded';
  uptimeSeconds: number;
  checks: { database: CheckStatus; kafka: CheckStatus };
}

/**
 * Asks PostgreSQL and Kafka, each within HEALTH_CHECK_TIMEOUT_MS, whether they answer right now.
 * Kafka counts as up only while this instance can also receive replies (its request-reply client
 * joined its group): after a dead client was replaced, the instance is not ready until the new one is.
 */
@Injectable()
export class HealthService {
  constructor(
    private readonly dataSource: DataSource,
    @Inject(KAFKA_SETTINGS) private readonly kafka: KafkaSettings,
    @Inject(GatewayConfig) private readonly config: GatewayConfig,
    private readonly services: ServiceClient,
  ) {}

  async check(): Promise<GatewayHealth> {
    const [database, kafka] = await Promise.all([this.databaseStatus(), this.kafkaStatus()]);
    return {
      status: database === 'up' && kafka === 'up' ? 'ok' : 'degraded',
      uptimeSeconds: Math.floor(process.uptime()),
      checks: { database, kafka },
    };
  }

  private async databaseStatus(): Promise<CheckStatus> {
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        this.dataSource.query('SELECT 1'),
        new Promise((_, reject) => (timer = setTimeout(() => reject(new Error('timeout')), this.config.HEALTH_CHECK_TIMEOUT_MS))),
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
    const health = await kafkaHealth(this.kafka, this.config.HEALTH_CHECK_TIMEOUT_MS);
    return health.ok ? 'up' : 'down';
  }
}
