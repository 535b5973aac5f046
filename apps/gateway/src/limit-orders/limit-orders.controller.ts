import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiOperation, ApiTags } from '@nestjs/swagger';
import { IdempotencyKey, Owner } from '../common/http/request-decorators';
import { Idempotent } from '../idempotency';
import { ApiEnvelopedResponse, ApiErrorResponses } from '../openapi/api-responses';
import { CancelLimitOrderDto } from './dto/cancel-limit-order.dto';
import {
  LimitOrderCanceledResponse,
  LimitOrderCreatedResponse,
  LimitOrderListResponse,
  LimitOrderReplacedResponse,
  LimitOrderResponse,
} from './dto/limit-order-responses';
import { CreateLimitOrderDto, ReplaceLimitOrderDto } from './dto/limit-order-terms.dto';
import { ListLimitOrdersQuery } from './dto/list-limit-orders.query';
import { LimitOrdersService } from './limit-orders.service';

/** What any call to limit-order-service can answer: no answer in time, Kafka or its database away. */
const LIMIT_ORDER_SERVICE_ERRORS = [
  'SERVICE_UNAVAILABLE',
  'MESSAGING_UNAVAILABLE',
  'PERSISTENCE_UNAVAILABLE',
] as const;
/** What limit-order-service refuses in an order's terms (create, replace): POST /quote's checks, and the expiry. */
const ORDER_TERMS_ERRORS = [
  'VALIDATION_FAILED',
  'UNKNOWN_CHAIN',
  'UNKNOWN_TOKEN',
  'SAME_TOKEN',
  'INVALID_AMOUNT',
  'INVALID_ADDRESS',
  'INVALID_EXPIRY',
] as const;

@ApiTags('limit-orders')
@ApiBearerAuth()
@Controller('limit-orders')
export class LimitOrdersController {
  constructor(private readonly orders: LimitOrdersService) {}

  @Post('limit')
  @HttpCode(200)
  @Idempotent({ required: true })
  @ApiOperation({ operationId: 'createLimitOrder', summary: 'Create a durable off-chain limit order' })
  @ApiEnvelopedResponse(
    200,
    LimitOrderCreatedResponse,
    'The order (a replay of the same key answers the same order)',
  )
  @ApiErrorResponses(...ORDER_TERMS_ERRORS, ...LIMIT_ORDER_SERVICE_ERRORS)
  create(
    @Owner() owner: string,
    @IdempotencyKey() key: string,
    @Body() body: CreateLimitOrderDto,
  ): Promise<LimitOrderCreatedResponse> {
    return this.orders.create(owner, key, body);
  }

  @Get('limit/:limitOrderId')
  @ApiOperation({ operationId: 'getLimitOrder', summary: 'Read one of your limit orders' })
  @ApiEnvelopedResponse(200, LimitOrderResponse, 'The order')
  @ApiErrorResponses('FORBIDDEN', 'LIMIT_ORDER_NOT_FOUND', ...LIMIT_ORDER_SERVICE_ERRORS)
  get(@Owner() owner: string, @Param('limitOrderId') limitOrderId: string): Promise<LimitOrderResponse> {
    return this.orders.get(owner, limitOrderId);
  }

  @Delete('limit/:limitOrderId')
  @HttpCode(200)
  @Idempotent({ required: true })
  @ApiOperation({ operationId: 'cancelLimitOrder', summary: 'Cancel one of your open limit orders' })
  @ApiBody({ type: CancelLimitOrderDto, required: false })
  @ApiEnvelopedResponse(200, LimitOrderCanceledResponse, 'The canceled order')
  @ApiErrorResponses(
    'FORBIDDEN',
    'LIMIT_ORDER_NOT_FOUND',
    'LIMIT_ORDER_NOT_REPLACEABLE',
    ...LIMIT_ORDER_SERVICE_ERRORS,
  )
  cancel(
    @Owner() owner: string,
    @IdempotencyKey() key: string,
    @Param('limitOrderId') limitOrderId: string,
    @Body() body: CancelLimitOrderDto,
  ): Promise<LimitOrderCanceledResponse> {
    return this.orders.cancel(owner, key, limitOrderId, body);
  }

  @Post('limit/:limitOrderId/replace')
  @HttpCode(200)
  @Idempotent({ required: true })
  @ApiOperation({
    operationId: 'replaceLimitOrder',
    summary: 'Atomically create a replacement order and cancel this open one',
  })
  @ApiEnvelopedResponse(200, LimitOrderReplacedResponse, 'The replacement order and the canceled one')
  @ApiErrorResponses(
    'FORBIDDEN',
    'LIMIT_ORDER_NOT_FOUND',
    'LIMIT_ORDER_NOT_REPLACEABLE',
    ...ORDER_TERMS_ERRORS,
    ...LIMIT_ORDER_SERVICE_ERRORS,
  )
  replace(
    @Owner() owner: string,
    @IdempotencyKey() key: string,
    @Param('limitOrderId') limitOrderId: string,
    @Body() body: ReplaceLimitOrderDto,
  ): Promise<LimitOrderReplacedResponse> {
    return this.orders.replace(owner, key, limitOrderId, body);
  }

  @Get('limits')
  @ApiOperation({ operationId: 'listLimitOrders', summary: 'List your limit orders, newest first' })
  @ApiEnvelopedResponse(200, LimitOrderListResponse, 'Your orders, newest first')
  @ApiErrorResponses(...LIMIT_ORDER_SERVICE_ERRORS)
  list(@Owner() owner: string, @Query() query: ListLimitOrdersQuery): Promise<LimitOrderListResponse> {
    return this.orders.list(owner, query);
  }
}
