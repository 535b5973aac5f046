import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import type { ServiceLiveness } from '@swapgw/messaging';

export const HEALTH_SCOPES = ['suite', 'instance'] as const;
export type HealthScope = (typeof HEALTH_SCOPES)[number];

/** Query of GET /health. */
export class HealthQuery {
  @ApiPropertyOptional({
    enum: HEALTH_SCOPES,
    default: 'suite',
    description:
      '`suite` (default): `degraded` (503) when PostgreSQL, Kafka or any Kafka service is down. ' +
      '`instance`: only what this gateway instance needs to serve (PostgreSQL and Kafka), for a readiness probe; ' +
      'the services are still reported but do not make it 503.',
  })
  @IsOptional()
  @IsIn(HEALTH_SCOPES)
  scope?: HealthScope;
}

const SERVICE_STATES = ['up', 'down', 'unknown'];
const SERVICE_STATE_TEXT =
  'From its heartbeats on `service.heartbeats`: `up` when an instance was heard from within SERVICE_HEARTBEAT_TIMEOUT_MS (15 s), ' +
  '`down` when none was, `unknown` while this gateway instance has not been listening that long (right after its start).';

class ServiceChecksDto {
  @ApiProperty({ enum: SERVICE_STATES, description: SERVICE_STATE_TEXT })
  'quote-service'!: ServiceLiveness;

  @ApiProperty({ enum: SERVICE_STATES, description: SERVICE_STATE_TEXT })
  'execution-planner'!: ServiceLiveness;

  @ApiProperty({ enum: SERVICE_STATES, description: SERVICE_STATE_TEXT })
  'signer-surface'!: ServiceLiveness;

  @ApiProperty({ enum: SERVICE_STATES, description: SERVICE_STATE_TEXT })
  'limit-order-service'!: ServiceLiveness;
}

class HealthChecksDto {
  @ApiProperty({
    enum: ['up', 'down'],
    description: 'PostgreSQL answers `SELECT 1` within HEALTH_CHECK_TIMEOUT_MS',
  })
  database!: 'up' | 'down';

  @ApiProperty({
    enum: ['up', 'down'],
    description:
      'The Kafka cluster answers within HEALTH_CHECK_TIMEOUT_MS and this instance receives replies (its request-reply client joined its group)',
  })
  kafka!: 'up' | 'down';

  @ApiProperty({
    type: ServiceChecksDto,
    description: 'Liveness of each Kafka service (`unknown` does not count as down)',
  })
  services!: ServiceChecksDto;
}

export class HealthDto {
  @ApiProperty({ enum: ['ok', 'degraded'] })
  status!: 'ok' | 'degraded';

  @ApiProperty({ type: 'integer', minimum: 0 })
  uptimeSeconds!: number;

  @ApiProperty({ type: HealthChecksDto })
  checks!: HealthChecksDto;
}
