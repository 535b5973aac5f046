import { Controller, Get, Query, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { GatewayReply } from '../common/http/gateway-request';
import { PublicRoute } from '../common/http/request-decorators';
import { ApiEnvelopedResponse, ApiErrorResponses } from '../openapi/api-responses';
import { HealthDto, HealthQuery } from './health.dto';
import { GatewayHealth, HealthService } from './health.service';

@ApiTags('health')
@Controller('health')
@PublicRoute()
export class HealthController {
  constructor(private readonly health: HealthService) {}

  @Get()
  @ApiOperation({
    operationId: 'getHealth',
    summary: 'Service status and uptime (no authentication)',
    description:
      'status is `ok` when PostgreSQL and Kafka answer and every Kafka service is `up` (services are known from their ' +
      'heartbeats over Kafka; `unknown` until a just-started gateway heard from them); otherwise `degraded` with the ' +
      'same body and HTTP 503. With `scope=instance` only ' +
      'PostgreSQL and Kafka decide (readiness of this gateway instance).',
  })
  @ApiEnvelopedResponse(200, HealthDto, 'Every dependency answers and every service is up')
  @ApiEnvelopedResponse(
    503,
    HealthDto,
    'A dependency is down or a service is not up (same body, checks say which)',
  )
  @ApiErrorResponses({
    status: 400,
    description: 'scope is not `suite` or `instance`, or an unknown parameter (VALIDATION_FAILED)',
  })
  async get(
    @Query() query: HealthQuery,
    @Res({ passthrough: true }) reply: GatewayReply,
  ): Promise<GatewayHealth> {
    const health = await this.health.check(query.scope ?? 'suite');
    reply.status(health.status === 'ok' ? 200 : 503);
    return health;
  }
}
