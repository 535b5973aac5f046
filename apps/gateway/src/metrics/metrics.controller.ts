import { Controller, Get, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { renderMetrics } from '@swapgw/runtime';
import type { GatewayReply } from '../common/http/gateway-request';
import { PublicRoute } from '../common/http/request-decorators';

/**
 * GET /api/v1/metrics: the process's metrics in the Prometheus text format, for the scraper. No
 * API key and no rate limit (a public route), no envelope (the reply is sent here), and not in the
 * OpenAPI document: it is an operator endpoint, not part of the public API.
 */
@ApiExcludeController()
@Controller('metrics')
@PublicRoute()
export class MetricsController {
  @Get()
  async metrics(@Res() reply: GatewayReply): Promise<void> {
    const { contentType, body } = await renderMetrics();
    await reply.header('content-type', contentType).header('cache-control', 'no-store').status(200).send(body);
  }
}
