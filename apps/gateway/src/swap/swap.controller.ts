import { Body, Controller, Get, HttpCode, Param, Post, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { GatewayReply } from '../common/http/gateway-request';
import { IdempotencyKey, Owner } from '../common/http/request-decorators';
import { Idempotent } from '../idempotency';
import { ApiEnvelopedResponse, ApiErrorResponses } from '../openapi/api-responses';
import { BuildSwapDto } from './dto/build-swap.dto';
import { SubmitSignedTxDto } from './dto/submit-signed-tx.dto';
import { AsyncSigningResponseDto, SubmittedSigningResponseDto, SyncSigningResponseDto } from './dto/swap-responses.dto';
import { SwapService } from './swap.service';
import type { AsyncSigningResponse, SubmittedSigningResponse, SyncSigningResponse } from './swap-responses';

@ApiTags('swap')
@ApiBearerAuth()
@Controller('swap')
export class SwapController {
  constructor(private readonly swaps: SwapService) {}

  @Post('build')
  @Idempotent({ required: false })
  @ApiOperation({
    summary: 'Build the swap; answers the first signable step (200 sync) or poll instructions (202 async) after waitForTxRequestMs',
    description:
      'The build is handed to the planner as a durable Kafka command and never refused because a service is busy or down: it then answers 202 and ' +
      'the swap is planned when the planner gets to it. Verdicts the planner or signer reach after a 202 (400 VALIDATION_FAILED / INVALID_ADDRESS, ' +
      '503 SIGNING_SURFACE_UNAVAILABLE, 409 TX_REQUEST_INVALID) are answered by GET /swap/{swapId}/signing with the same status and code.',
  })
  @ApiEnvelopedResponse(200, SyncSigningResponseDto, 'mode sync: the first payload to sign')
  @ApiEnvelopedResponse(202, AsyncSigningResponseDto, 'mode async: poll GET /swap/{swapId}/signing after pollAfterMs')
  @ApiErrorResponses(
    {
      status: 400,
      description:
        'Invalid body (userAddress is required), unknown route, a permit that cannot be used on this route (native input, no permit router, missing or ' +
        'doubled signature, deadline missing or past, permit2 without nonce): VALIDATION_FAILED with details.field, UNKNOWN_ROUTE',
    },
    { status: 404, description: 'Unknown quote (QUOTE_NOT_FOUND)' },
    {
      status: 409,
      description:
        'The first tx request cannot be signed (TX_REQUEST_INVALID; details.message names the revert, e.g. a permit that does not verify: ' +
        'PermitRejected(token), InvalidSigner(), InvalidNonce()), or an idempotency conflict',
    },
    410,
    {
      status: 503,
      description:
        'Within the wait: no signing surface for a chain of the route (SIGNING_SURFACE_UNAVAILABLE). Kafka did not take the command in time ' +
        '(SERVICE_UNAVAILABLE) or PostgreSQL is down (PERSISTENCE_UNAVAILABLE): retry with the same Idempotency-Key',
    },
  )
  async build(
    @Owner() owner: string,
    @IdempotencyKey() key: string,
    @Body() body: BuildSwapDto,
    @Res({ passthrough: true }) reply: GatewayReply,
  ): Promise<SyncSigningResponse | AsyncSigningResponse> {
    const answer = await this.swaps.build(owner, key, body);
    reply.status(answer.httpStatus);
    return answer.body;
  }

  @Get(':swapId/signing')
  @ApiOperation({ summary: 'The current signable payload (200), or 202 while it is being built, funds are awaited or an expired one is refreshed' })
  @ApiEnvelopedResponse(200, SyncSigningResponseDto, 'mode sync: a payload to sign')
  @ApiEnvelopedResponse(202, AsyncSigningResponseDto, 'mode async: nothing to sign yet; poll again after pollAfterMs')
  @ApiErrorResponses(
    { status: 400, description: 'The build was refused after its 202: a permit or address the route cannot take (VALIDATION_FAILED, INVALID_ADDRESS)' },
    { status: 404, description: 'Unknown swap, or another owner’s (SWAP_NOT_FOUND)' },
    {
      status: 409,
      description:
        'The swap is completed, failed or expired (EXECUTION_TERMINAL, details {status, reason}); or the build was refused after its 202 because ' +
        'the first transaction cannot be signed (TX_REQUEST_INVALID)',
    },
    { status: 503, description: 'The build was refused after its 202: no signing surface for a chain of the route (SIGNING_SURFACE_UNAVAILABLE); or a service did not answer' },
  )
  async signing(
    @Owner() owner: string,
    @Param('swapId') swapId: string,
    @Res({ passthrough: true }) reply: GatewayReply,
  ): Promise<SyncSigningResponse | AsyncSigningResponse> {
    const answer = await this.swaps.signing(owner, swapId);
    reply.status(answer.httpStatus);
    return answer.body;
  }

  @Post(':swapId/signing')
  @HttpCode(200)
  @Idempotent({ required: false })
  @ApiOperation({ summary: 'Submit the signed transaction of the current step; then poll the same path for the next step' })
  @ApiEnvelopedResponse(200, SubmittedSigningResponseDto, 'Accepted and broadcast')
  @ApiErrorResponses(
    { status: 400, description: 'rawTx is not a signed transaction (INVALID_SIGNED_TX)' },
    { status: 404, description: 'Unknown swap, or another owner’s (SWAP_NOT_FOUND)' },
    { status: 409, description: 'tx_request_expired, TX_REQUEST_NOT_YET_VALID, TX_REQUEST_MISMATCH or EXECUTION_TERMINAL' },
    503,
  )
  submit(@Owner() owner: string, @Param('swapId') swapId: string, @Body() body: SubmitSignedTxDto): Promise<SubmittedSigningResponse> {
    return this.swaps.submit(owner, swapId, body.rawTx);
  }
}
