import { Body, Controller, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { GatewayReply, GatewayRequest } from '../common/http/gateway-request';
import { IdempotencyKey, Owner } from '../common/http/request-decorators';
import { Idempotent } from '../idempotency';
import { servedRouteReadOf } from '../quote/served-quotes.repository';
import { ApiEnvelopedResponse, ApiErrorResponses } from '../openapi/api-responses';
import { BuildSwapDto } from './dto/build-swap.dto';
import { SigningPollQuery } from './dto/signing-poll.query';
import { SubmitSignedTxDto } from './dto/submit-signed-tx.dto';
import { SwapResourceDto } from './dto/swap-resource.dto';
import {
  AsyncSigningResponseDto,
  SubmittedSigningResponseDto,
  SyncSigningResponseDto,
} from './dto/swap-responses.dto';
import { SwapService } from './swap.service';
import type { AsyncSigningResponse, SubmittedSigningResponse, SyncSigningResponse } from './swap-responses';
import type { SwapResource } from './swap-resource';

/**
 * What the planner or signer can refuse a build with (stored as the swap's failure reason and
 * answered by the build within its wait, or by GET /swap/{swapId}/signing after a 202).
 */
const BUILD_VERDICT_ERRORS = [
  'VALIDATION_FAILED',
  'INVALID_ADDRESS',
  'TX_REQUEST_INVALID',
  'SIGNING_SURFACE_UNAVAILABLE',
  'SPONSORSHIP_BUDGET_EXHAUSTED',
  'SPONSORSHIP_UNAVAILABLE',
] as const;

@ApiTags('swap')
@ApiBearerAuth()
@Controller('swap')
export class SwapController {
  constructor(private readonly swaps: SwapService) {}

  @Post('build')
  // The served route travels with the claim of the key: one round trip less before the build runs.
  @Idempotent({ required: false, readWithClaim: (request) => servedRouteReadOf(request.owner, request.body) })
  @ApiOperation({
    operationId: 'buildSwap',
    summary:
      'Build the swap; answers the first signable step (200 sync) or poll instructions (202 async) after waitForTxRequestMs',
    description:
      "Before the command goes out, the route's first swap leg is priced again against the chain or provider (409 QUOTE_PRICE_CHANGED when it moved " +
      "beyond the quote's slippage; acceptedMinAmountOut accepts the new price; the figures are in priceCheck of the answer). " +
      'The build is handed to the planner as a durable Kafka command and never refused because a service is busy or down: it then answers 202 and ' +
      'the swap is planned when the planner gets to it. Verdicts the planner or signer reach after a 202 (400 VALIDATION_FAILED / INVALID_ADDRESS, ' +
      '503 SIGNING_SURFACE_UNAVAILABLE, 409 TX_REQUEST_INVALID) are answered by GET /swap/{swapId}/signing with the same status and code.',
  })
  @ApiEnvelopedResponse(200, SyncSigningResponseDto, 'mode sync: the first payload to sign')
  @ApiEnvelopedResponse(
    202,
    AsyncSigningResponseDto,
    'mode async: poll GET /swap/{swapId}/signing after pollAfterMs',
  )
  @ApiErrorResponses(
    ...BUILD_VERDICT_ERRORS,
    'UNKNOWN_ROUTE',
    'QUOTE_NOT_FOUND',
    'QUOTE_EXPIRED',
    'EXECUTION_TERMINAL',
    'SERVICE_UNAVAILABLE',
    'QUOTE_PRICE_CHANGED',
    'QUOTE_UPSTREAM_FAILED',
    'INVALID_AMOUNT',
    {
      status: 400,
      description:
        'Invalid body (userAddress is required), unknown route, a permit that cannot be used on this route (native input, no permit router, missing or ' +
        'doubled signature, deadline missing or past, permit2 without nonce): VALIDATION_FAILED with details.fields[], UNKNOWN_ROUTE; ' +
        'acceptedMinAmountOut with more decimals than tokenOut has: INVALID_AMOUNT',
    },
    {
      status: 409,
      description:
        'The first tx request cannot be signed (TX_REQUEST_INVALID; details.message names the revert, e.g. a permit that does not verify: ' +
        'PermitRejected(token), InvalidSigner(), InvalidNonce()), or an idempotency conflict. QUOTE_PRICE_CHANGED: the first leg, priced again at ' +
        "build, now pays less than the quote's minimum (moved beyond slippage), or the client's acceptedMinAmountOut is above the new minimum; " +
        'details: routeId, expectedAmountOut and minAmountOut (new), quotedExpectedAmountOut, quotedMinAmountOut (human units of tokenOut). ' +
        'Nothing was built and the Idempotency-Key stays free: request a new quote, or build again with acceptedMinAmountOut = details.minAmountOut',
    },
    {
      status: 502,
      description:
        'QUOTE_UPSTREAM_FAILED: the route could not be priced again at build (its provider failed or did not answer); nothing was built, retry',
    },
    {
      status: 503,
      description:
        'Within the wait: no signing surface or gas sponsorship for a chain of the route. Kafka did not take the command, or the quote service ' +
        'did not answer the price check, in time (SERVICE_UNAVAILABLE) ' +
        'or PostgreSQL is down (PERSISTENCE_UNAVAILABLE): retry with the same Idempotency-Key',
    },
  )
  async build(
    @Owner() owner: string,
    @IdempotencyKey() key: string,
    @Body() body: BuildSwapDto,
    // The request, not a parameter decorator: the claim (with its served route) is not for the pipes to walk.
    @Req() request: GatewayRequest,
    @Res({ passthrough: true }) reply: GatewayReply,
  ): Promise<SyncSigningResponse | AsyncSigningResponse> {
    const answer = await this.swaps.build(owner, key, body, request.idempotencyClaim);
    reply.status(answer.httpStatus);
    return answer.body;
  }

  @Get(':swapId')
  @ApiOperation({
    operationId: 'getSwap',
    summary:
      'The swap in any status, finished ones included: its steps (kind, chain, status, transaction), failure and quoted amounts',
    description:
      'Unlike GET /swap/{swapId}/signing, which answers 409 EXECUTION_TERMINAL once the swap is completed, failed or expired, this answers 200 ' +
      'in every status. Steps follow the swap events: a step reads submitted once the planner recorded its broadcast, a moment after POST /signing answered.',
  })
  @ApiEnvelopedResponse(200, SwapResourceDto, 'The swap')
  @ApiErrorResponses('SWAP_NOT_FOUND', {
    status: 404,
    description: 'Unknown swap, or another owner’s (SWAP_NOT_FOUND)',
  })
  swap(@Owner() owner: string, @Param('swapId') swapId: string): Promise<SwapResource> {
    return this.swaps.get(owner, swapId);
  }

  @Get(':swapId/signing')
  @ApiOperation({
    operationId: 'getSwapSigning',
    summary:
      'The current signable payload (200), or 202 while it is being built, funds are awaited or an expired one is refreshed',
    description:
      'With waitForTxRequestMs the poll waits, as a build does, and answers as soon as the payload is ready or the swap reaches a verdict ' +
      '(a client then sees its payload the moment it is stored, in one request instead of a poll every pollAfterMs); a 202 comes at the ' +
      'end of the wait, and the client polls again at once. Without it the answer is immediate.',
  })
  @ApiEnvelopedResponse(200, SyncSigningResponseDto, 'mode sync: a payload to sign')
  @ApiEnvelopedResponse(
    202,
    AsyncSigningResponseDto,
    'mode async: nothing to sign yet; poll again after pollAfterMs',
  )
  @ApiErrorResponses(
    ...BUILD_VERDICT_ERRORS,
    'SWAP_NOT_FOUND',
    'EXECUTION_TERMINAL',
    'SERVICE_UNAVAILABLE',
    'MESSAGING_UNAVAILABLE',
    {
      status: 400,
      description: 'The build was refused after its 202: a permit or address the route cannot take',
    },
    { status: 404, description: 'Unknown swap, or another owner’s' },
    {
      status: 409,
      description:
        'The swap is completed, failed or expired (EXECUTION_TERMINAL, details {status, reason}); or the build was refused after its 202 because ' +
        'the first transaction cannot be signed (TX_REQUEST_INVALID)',
    },
    {
      status: 503,
      description:
        'The build was refused after its 202 (no signing surface or sponsorship for a chain of the route); or a service did not answer',
    },
  )
  async signing(
    @Owner() owner: string,
    @Param('swapId') swapId: string,
    @Query() query: SigningPollQuery,
    @Res({ passthrough: true }) reply: GatewayReply,
  ): Promise<SyncSigningResponse | AsyncSigningResponse> {
    const answer = await this.swaps.signing(owner, swapId, query.waitForTxRequestMs);
    reply.status(answer.httpStatus);
    return answer.body;
  }

  @Post(':swapId/signing')
  @HttpCode(200)
  @Idempotent({ required: false })
  @ApiOperation({
    operationId: 'submitSwapSignature',
    summary: 'Submit the signed transaction of the current step; then poll the same path for the next step',
    description:
      'Send rawTx (what the wallet signed), or txHash when the wallet sent the transaction of a user-paid evm-transaction step ' +
      'itself (an injected EIP-1193 wallet such as MetaMask, eth_sendTransaction): the transaction is read from the chain ' +
      "(waiting up to 4 s for the node to know it) and accepted only if its from, to, data, value and chainId are the payload's " +
      "(its nonce and gas are the wallet's, the nonce not below the payload's).",
  })
  @ApiEnvelopedResponse(
    200,
    SubmittedSigningResponseDto,
    "Verified and accepted. The answer never waits on the chain: the transaction is broadcast (sponsored: the relayer sent it, or the wallet's own transaction goes out once the gas sent ahead of it is mined); its outcome shows on GET /swap/{swapId}, this path, the events and webhooks",
  )
  @ApiErrorResponses(
    'INVALID_SIGNED_TX',
    'TX_HASH_NOT_ACCEPTED',
    'SWAP_NOT_FOUND',
    'TRANSACTION_NOT_FOUND',
    'tx_request_expired',
    'TX_REQUEST_NOT_YET_VALID',
    'TX_REQUEST_MISMATCH',
    'TX_REQUEST_INVALID',
    'EXECUTION_TERMINAL',
    'SIGNING_SURFACE_UNAVAILABLE',
    'SPONSORSHIP_BUDGET_EXHAUSTED',
    'SPONSORSHIP_UNAVAILABLE',
    'SERVICE_UNAVAILABLE',
    'MESSAGING_UNAVAILABLE',
  )
  submit(
    @Owner() owner: string,
    @Param('swapId') swapId: string,
    @Body() body: SubmitSignedTxDto,
  ): Promise<SubmittedSigningResponse> {
    return this.swaps.submit(owner, swapId, body);
  }
}
