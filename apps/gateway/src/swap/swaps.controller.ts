import { Controller, Get, Query, Req } from '@nestjs/common';
import { Clock } from '@swapgw/runtime';
import {
  ApiBearerAuth,
  ApiExtraModels,
  ApiOperation,
  ApiResponse,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import { apiMetaOf } from '../common/envelope/api-meta';
import { RawResponse } from '../common/envelope/envelope.interceptor';
import type { GatewayRequest } from '../common/http/gateway-request';
import { Owner } from '../common/http/request-decorators';
import { ApiErrorResponses } from '../openapi/api-responses';
import { ListSwapsQuery } from './dto/list-swaps.query';
import { SwapListMetaDto, SwapResourceDto } from './dto/swap-resource.dto';
import type { SwapResource } from './swap-resource';
import { SwapService } from './swap.service';

/** The body of GET /swaps: the envelope with the page in `data` and the next cursor in `meta`. */
export interface SwapListBody {
  data: SwapResource[];
  meta: SwapListMetaDto;
}

@ApiTags('swap')
@ApiBearerAuth()
@Controller('swaps')
export class SwapsController {
  constructor(
    private readonly swaps: SwapService,
    private readonly clock: Clock,
  ) {}

  @Get()
  // The envelope is built here: its meta carries the next page's cursor besides requestId and timestamp.
  @RawResponse()
  @ApiOperation({
    operationId: 'listSwaps',
    summary:
      "The caller's swaps, newest first, keyset-paginated with an opaque cursor; optionally one status only",
    description:
      'data is the page (each item as GET /swap/{swapId} answers it); meta.nextCursor is the cursor of the next page, null on the last.',
  })
  @ApiExtraModels(SwapResourceDto, SwapListMetaDto)
  @ApiResponse({
    status: 200,
    description: 'One page of swaps',
    schema: {
      type: 'object',
      required: ['data', 'meta'],
      properties: {
        data: { type: 'array', items: { $ref: getSchemaPath(SwapResourceDto) } },
        meta: { $ref: getSchemaPath(SwapListMetaDto) },
      },
    },
  })
  @ApiErrorResponses('VALIDATION_FAILED', 'INVALID_CURSOR', {
    status: 400,
    description:
      'Unknown status or a limit out of range (VALIDATION_FAILED, the field in details), a cursor not from this list and status (INVALID_CURSOR)',
  })
  async list(
    @Owner() owner: string,
    @Query() query: ListSwapsQuery,
    @Req() request: GatewayRequest,
  ): Promise<SwapListBody> {
    const page = await this.swaps.list(owner, query);
    return {
      data: page.swaps,
      meta: { ...apiMetaOf(request, this.clock.nowMs()), nextCursor: page.nextCursor },
    };
  }
}
