import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { KAFKA_SETTINGS, kafkaHealth, KafkaSettings } from '@swapgw/messaging';
import { GatewayConfig } from '../config/gateway.config';

export type CheckStatus = 'up' | 'down';

export interface GatewayHealth {
  status: 'ok' | 'degraded';
  uptimeSeconds: number;
  checks: { database: CheckStatus; kafka: CheckStatus };
}

/** Asks PostgreSQL and Kafka, each within HEALTH_CHECK_TIMEOUT_MS, whether they answer right now. */
@Injectable()
export class HealthService {
  constructor(
    private readonly dataSource: DataSource,
    @Inject(KAFKA_SETTINGS) private readonly kafka: KafkaSettings,
    @Inject(GatewayConfig) private readonly config: GatewayConfig,
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
    const health = await kafkaHealth(this.kafka, this.config.HEALTH_CHECK_TIMEOUT_MS);
    return health.ok ? 'up' : 'down';
  }
}
