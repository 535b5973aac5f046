import { Body, Controller, Get, HttpCode, Param, Post, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { GatewayReply } from '../common/http/gateway-request';
import { IdempotencyKey, Owner } from '../common/http/request-decorators';
import { Idempotent } from '../idempotency';
import { BuildSwapDto } from './dto/build-swap.dto';
import { SubmitSignedTxDto } from './dto/submit-signed-tx.dto';
import { SwapService } from './swap.service';
import type { AsyncSigningResponse, SubmittedSigningResponse, SyncSigningResponse } from './swap-responses';

@ApiTags('swap')
@ApiBearerAuth()
@Controller('swap')
export class SwapController {
  constructor(private readonly swaps: SwapService) {}

  @Post('build')
  @Idempotent({ required: false })
  @ApiOperation({ summary: 'Build the swap and return the first signable step (200 sync) or poll instructions (202 async)' })
  @ApiResponse({ status: 200, description: 'mode sync: a payload to sign' })
  @ApiResponse({ status: 202, description: 'mode async: poll GET /swap/{swapId}/signing after pollAfterMs' })
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
  @ApiOperation({ summary: 'The current signable payload (200), or 202 while it is being built' })
  @ApiResponse({ status: 200, description: 'mode sync: a payload to sign' })
  @ApiResponse({ status: 202, description: 'mode async with status: building, waiting for bridged funds, confirming or refreshing an expired payload' })
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
  @ApiOperation({ summary: 'Submit the signed transaction of the current step' })
  @ApiResponse({ status: 200, description: '{swapId, txHash, step, status: submitted, nextAction: poll, pollAfterMs}' })
  submit(@Owner() owner: string, @Param('swapId') swapId: string, @Body() body: SubmitSignedTxDto): Promise<SubmittedSigningResponse> {
    return this.swaps.submit(owner, swapId, body.rawTx);
  }
}
