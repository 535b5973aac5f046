import { Controller, Get, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { GatewayReply } from '../common/http/gateway-request';
import { PublicRoute } from '../common/http/request-decorators';
import { ApiEnvelopedResponse } from '../openapi/api-responses';
import { HealthDto } from './health.dto';
import { GatewayHealth, HealthService } from './health.service';

@ApiTags('health')
@Controller('health')
@PublicRoute()
export class HealthController {
  constructor(private readonly health: HealthService) {}

  @Get()
  @ApiOperation({
    summary: 'Service status and uptime (no authentication)',
    description:
      'status is `ok` when PostgreSQL and Kafka both answer; otherwise `degraded` with the same body and HTTP 503.',
  })
  @ApiEnvelopedResponse(200, HealthDto, 'Every dependency answers')
  @ApiEnvelopedResponse(503, HealthDto, 'A dependency is down (same body, checks say which)')
  async get(@Res({ passthrough: true }) reply: GatewayReply): Promise<GatewayHealth> {
    const health = await this.health.check();
    reply.status(health.status === 'ok' ? 200 : 503);
    return health;
  }
}

