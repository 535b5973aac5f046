import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Owner } from '../common/http/request-decorators';
import { ApiEnvelopedResponse, ApiErrorResponses } from '../openapi/api-responses';
import {
  CreateWebhookDto,
  ListWebhookDeliveriesQuery,
  WebhookCreatedResponse,
  WebhookDeletedResponse,
  WebhookDeliveryListResponse,
  WebhookDeliveryResponse,
  WebhookListResponse,
} from './dto/webhook.dto';
import { WebhooksService } from './webhooks.service';

@ApiTags('webhooks')
@ApiBearerAuth()
@Controller('webhooks')
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({
    operationId: 'createWebhook',
    summary: 'Register a webhook',
    description:
      'Swap and limit-order events of this API key owner are POSTed to `url`, signed with the `secret` of this answer (shown only once).',
  })
  @ApiEnvelopedResponse(201, WebhookCreatedResponse, 'The webhook, with its signing secret (not shown again)')
  @ApiErrorResponses('WEBHOOK_URL_REJECTED', 'WEBHOOK_LIMIT_REACHED')
  create(@Owner() owner: string, @Body() body: CreateWebhookDto): Promise<WebhookCreatedResponse> {
    return this.webhooks.create(owner, body);
  }

  @Get()
  @ApiOperation({
    operationId: 'listWebhooks',
    summary: 'List your webhooks, newest first (without secrets)',
  })
  @ApiEnvelopedResponse(200, WebhookListResponse, 'Your webhooks')
  list(@Owner() owner: string): Promise<WebhookListResponse> {
    return this.webhooks.list(owner);
  }

  @Delete(':webhookId')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'deleteWebhook',
    summary: 'Delete a webhook; its pending deliveries are dropped',
  })
  @ApiEnvelopedResponse(200, WebhookDeletedResponse, 'Deleted')
  @ApiErrorResponses('WEBHOOK_NOT_FOUND')
  delete(@Owner() owner: string, @Param('webhookId') webhookId: string): Promise<WebhookDeletedResponse> {
    return this.webhooks.delete(owner, webhookId);
  }

  @Get(':webhookId/deliveries')
  @ApiOperation({
    operationId: 'listWebhookDeliveries',
    summary: "A webhook's deliveries, newest first: status, attempts, last answer, next attempt",
  })
  @ApiEnvelopedResponse(200, WebhookDeliveryListResponse, 'One page of deliveries')
  @ApiErrorResponses('INVALID_CURSOR', 'WEBHOOK_NOT_FOUND')
  deliveries(
    @Owner() owner: string,
    @Param('webhookId') webhookId: string,
    @Query() query: ListWebhookDeliveriesQuery,
  ): Promise<WebhookDeliveryListResponse> {
    return this.webhooks.listDeliveries(owner, webhookId, query);
  }

  @Post(':webhookId/deliveries/:deliveryId/redeliver')
  @HttpCode(202)
  @ApiOperation({
    operationId: 'redeliverWebhookDelivery',
    summary: 'Send a delivery again',
    description:
      'The delivery (same id) becomes pending, due now, with a fresh retry window; also for a delivered or dead one.',
  })
  @ApiEnvelopedResponse(202, WebhookDeliveryResponse, 'The delivery, pending again')
  @ApiErrorResponses('WEBHOOK_NOT_FOUND', 'WEBHOOK_DELIVERY_NOT_FOUND')
  redeliver(
    @Owner() owner: string,
    @Param('webhookId') webhookId: string,
    @Param('deliveryId') deliveryId: string,
  ): Promise<WebhookDeliveryResponse> {
    return this.webhooks.redeliver(owner, webhookId, deliveryId);
  }
}
