import { ApiProperty } from '@nestjs/swagger';

class HealthChecksDto {
  @ApiProperty({ enum: ['up', 'down'] })
  database!: 'up' | 'down';

  @ApiProperty({ enum: ['up', 'down'] })
  kafka!: 'up' | 'down';
}

export class HealthDto {
  @ApiProperty({ enum: ['ok', 'degraded'] })
  status!: 'ok' | 'degraded';

  @ApiProperty({ type: 'integer', minimum: 0 })
  uptimeSeconds!: number;

  @ApiProperty({ type: HealthChecksDto })
  checks!: HealthChecksDto;
}
