import { Controller, Get, Headers, Param, Req, Res } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiExtraModels,
  ApiHeader,
  ApiOperation,
  ApiResponse,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import { RawResponse } from '../common/envelope/envelope.interceptor';
import type { GatewayReply, GatewayRequest } from '../common/http/gateway-request';
import { Owner } from '../common/http/request-decorators';
import { ApiErrorResponses } from '../openapi/api-responses';
import { SwapStreamEventDto } from './dto/swap-stream-events.dto';
import { SwapEventStreams } from './swap-event-streams.service';

@ApiTags('swap')
@ApiBearerAuth()
@Controller('swap')
export class SwapEventStreamController {
  constructor(private readonly streams: SwapEventStreams) {}

  @Get(':swapId/events')
  @RawResponse()
  @ApiOperation({
    operationId: 'streamSwapEvents',
    summary: 'Server-Sent Events of one swap: every change as it is projected, until its terminal event',
    description:
      "Replays the swap's events after Last-Event-ID (from its first event without one), then sends each new one. Events: swap.created, " +
      'swap.signing-ready (data = the 200 body of GET /swap/{swapId}/signing), swap.signing-pending, swap.step-submitted, swap.step-confirming, ' +
      "swap.step-packet (an IBC packet of a step moved: a Cosmos transfer's, or those of a route through a Noble forwarding account), swap.step-thorchain (THORChain's phase of a deposit's swap changed), swap.step-confirmed, and the terminal swap.completed, swap.failed, swap.expired, after which the stream ends. Idle streams get a " +
      '`: keep-alive` comment every SWAP_EVENT_HEARTBEAT_MS. Any gateway instance serves any swap. Open streams per API key and instance are ' +
      'limited (SWAP_EVENT_STREAMS_PER_KEY).',
  })
  @ApiHeader({
    name: 'Last-Event-ID',
    required: false,
    description: 'The id of the last event received: the stream resumes after it',
  })
  @ApiExtraModels(SwapStreamEventDto)
  @ApiResponse({
    status: 200,
    description:
      'text/event-stream: frames `id:` / `event:` / `data:` (one line of JSON), each described by SwapStreamEventDto',
    content: { 'text/event-stream': { schema: { $ref: getSchemaPath(SwapStreamEventDto) } } },
  })
  @ApiErrorResponses(
    {
      status: 400,
      description: 'Last-Event-ID is not an event id (VALIDATION_FAILED, details.field = Last-Event-ID)',
    },
    { status: 404, description: 'Unknown swap, or another owner’s (SWAP_NOT_FOUND)' },
    {
      status: 429,
      description:
        'Rate limit exceeded, or this API key already holds SWAP_EVENT_STREAMS_PER_KEY open streams on this instance (RATE_LIMITED, details.openStreams); see Retry-After',
    },
  )
  async events(
    @Owner() owner: string,
    @Param('swapId') swapId: string,
    @Headers('last-event-id') lastEventId: string | undefined,
    @Req() request: GatewayRequest,
    @Res() reply: GatewayReply,
  ): Promise<void> {
    await this.streams.serve(owner, request.apiKeyId ?? owner, swapId, lastEventId, reply);
  }
}
