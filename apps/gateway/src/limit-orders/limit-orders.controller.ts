import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { IdempotencyKey, Owner } from '../common/http/request-decorators';
import { Idempotent } from '../idempotency';
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

@ApiTags('limit-orders')
@ApiBearerAuth()
@Controller('limit-orders')
export class LimitOrdersController {
  constructor(private readonly orders: LimitOrdersService) {}

  @Post('limit')
  @HttpCode(200)
  @Idempotent({ required: true })
  @ApiOperation({ summary: 'Create a durable off-chain limit order' })
  @ApiOkResponse({ type: LimitOrderCreatedResponse })
  @ApiResponse({ status: 400, description: 'Invalid body, amount, token or expiry; missing Idempotency-Key' })
  @ApiResponse({ status: 503, description: 'Persistence or messaging unavailable' })
  create(@Owner() owner: string, @IdempotencyKey() key: string, @Body() body: CreateLimitOrderDto): Promise<LimitOrderCreatedResponse> {
    return this.orders.create(owner, key, body);
  }

  @Get('limit/:limitOrderId')
  @ApiOperation({ summary: 'Read one of your limit orders' })
  @ApiOkResponse({ type: LimitOrderResponse })
  @ApiResponse({ status: 403, description: 'The order belongs to another API key owner' })
  @ApiResponse({ status: 404, description: 'No such limit order' })
  get(@Owner() owner: string, @Param('limitOrderId') limitOrderId: string): Promise<LimitOrderResponse> {
    return this.orders.get(owner, limitOrderId);
  }

  @Delete('limit/:limitOrderId')
  @HttpCode(200)
  @Idempotent({ required: true })
  @ApiOperation({ summary: 'Cancel one of your open limit orders' })
  @ApiBody({ type: CancelLimitOrderDto, required: false })
  @ApiOkResponse({ type: LimitOrderCanceledResponse })
  @ApiResponse({ status: 403, description: 'The order belongs to another API key owner' })
  @ApiResponse({ status: 404, description: 'No such limit order' })
  @ApiResponse({ status: 409, description: 'The order already triggered or expired' })
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
  @ApiOperation({ summary: 'Atomically create a replacement order and cancel this open one' })
  @ApiOkResponse({ type: LimitOrderReplacedResponse })
  @ApiResponse({ status: 403, description: 'The order belongs to another API key owner' })
  @ApiResponse({ status: 404, description: 'No such limit order' })
  @ApiResponse({ status: 409, description: 'Order not open (not replaceable), or idempotency conflict' })
  replace(
    @Owner() owner: string,
    @IdempotencyKey() key: string,
    @Param('limitOrderId') limitOrderId: string,
    @Body() body: ReplaceLimitOrderDto,
  ): Promise<LimitOrderReplacedResponse> {
    return this.orders.replace(owner, key, limitOrderId, body);
  }

  @Get('limits')
  @ApiOperation({ summary: 'List your limit orders, newest first' })
  @ApiOkResponse({ type: LimitOrderListResponse })
  list(@Owner() owner: string, @Query() query: ListLimitOrdersQuery): Promise<LimitOrderListResponse> {
    return this.orders.list(owner, query);
  }
}
