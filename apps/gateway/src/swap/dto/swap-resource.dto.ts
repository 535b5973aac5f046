import { ApiExtraModels, ApiProperty, getSchemaPath } from '@nestjs/swagger';
import { HUMAN_AMOUNT, SWAP_STATUSES, SwapStatus } from '@swapgw/contracts';
import { ApiMetaDto } from '../../openapi/api-responses';
import { IbcPacketDto } from './cosmos/ibc-packet.dto';
import { ThorchainProgressDto } from './thorchain/thorchain-progress.dto';
import type { QuotedSwap, QuotedToken, SwapResource } from '../swap-resource';
import {
  SWAP_STEP_KINDS,
  SWAP_VIEW_STEP_STATUSES,
  SwapStepKind,
  SwapStepRecord,
  SwapViewStepStatus,
} from '../swap-steps';

/** Swagger shapes of GET /swap/{swapId} and GET /swaps; the types live in swap-resource.ts and swap-steps.ts. */
export class SwapStepResourceDto implements SwapStepRecord {
  @ApiProperty({ type: 'integer', minimum: 1, description: '1-based: the signing.step.current of this step' })
  index!: number;
  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'Chain id (GET /chains); null until the step was submitted, skipped or failed',
  })
  chain!: string | null;
  @ApiProperty({
    type: 'string',
    enum: [...SWAP_STEP_KINDS],
    nullable: true,
    description:
      "approve, swap or bridge; null until the step's payload was issued (a skipped step is an approve)",
  })
  kind!: SwapStepKind | null;
  @ApiProperty({
    enum: [...SWAP_VIEW_STEP_STATUSES],
    description:
      'pending (not offered yet, being prepared or funds awaited), awaiting_signature, submitted, confirming, confirmed, skipped (an approve whose ' +
      'allowance was already there: never offered for signing), failed',
  })
  status!: SwapViewStepStatus;
  @ApiProperty({
    type: 'string',
    nullable: true,
    description:
      "The step's transaction once broadcast: an EVM hash (0x), a Solana signature, a Bitcoin txid, or a Cosmos tx hash (64 uppercase hex)",
  })
  txHash!: string | null;
  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: 'When the transaction was broadcast (ms since epoch)',
  })
  submittedAtMs!: number | null;
  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: 'When the step was confirmed or skipped (ms since epoch)',
  })
  confirmedAtMs!: number | null;
  @ApiProperty({
    type: IbcPacketDto,
    nullable: true,
    description:
      'A Cosmos IBC transfer step: its packet (sent, received, acknowledged, timed_out; refunded); the step is ' +
      'confirmed once acknowledged, failed when refunded. A deposit paying a Noble forwarding account: the ' +
      "latest packet of the route after it (the forward to Osmosis, then the swap's output home), the step " +
      'confirmed once the last is acknowledged. null on every other step, and before a packet was read',
  })
  packet!: IbcPacketDto | null;
  @ApiProperty({
    type: ThorchainProgressDto,
    nullable: true,
    description:
      "A THORChain deposit step: THORChain's progress of its swap, from THORNode's tx/status of the deposit (phase: " +
      'not-observed, confirming, swapping, streaming with count / quantity, outbound-delay, outbound-signing, completed, ' +
      'refunded; the outbound ids); the step is confirmed once completed, failed when refunded. null on every other ' +
      'step, and before THORNode was read',
  })
  thorchain!: ThorchainProgressDto | null;
}

export class QuotedTokenDto implements QuotedToken {
  @ApiProperty() chain!: string;
  @ApiProperty() symbol!: string;
  @ApiProperty({
    type: 'string',
    nullable: true,
    description: "ERC-20 address or SPL mint; null for the chain's native coin",
  })
  address!: string | null;
  @ApiProperty({ type: 'integer', minimum: 0 }) decimals!: number;
}

/** A decimal string in units of a token ("0.0333"), as every amount of the API. */
const AMOUNT_PATTERN = HUMAN_AMOUNT.source;

export class QuotedSwapDto implements QuotedSwap {
  @ApiProperty() quoteId!: string;
  @ApiProperty() routeId!: string;
  @ApiProperty() fromChain!: string;
  @ApiProperty() toChain!: string;
  @ApiProperty({ type: QuotedTokenDto }) tokenIn!: QuotedTokenDto;
  @ApiProperty({ type: QuotedTokenDto }) tokenOut!: QuotedTokenDto;
  @ApiProperty({
    example: '25',
    description: 'What the route spends, in units of tokenIn',
    pattern: AMOUNT_PATTERN,
  })
  amountIn!: string;
  @ApiProperty({
    example: '0.0333',
    description: 'What the quote expected out, in units of tokenOut',
    pattern: AMOUNT_PATTERN,
  })
  expectedAmountOut!: string;
  @ApiProperty({
    example: '0.032967',
    description: 'The least the recipient gets (slippage applied), in units of tokenOut',
    pattern: AMOUNT_PATTERN,
  })
  minAmountOut!: string;
}

export class SwapFailureDto {
  @ApiProperty({
    description:
      "Why it ended: a step's failure code (TX_REQUEST_INVALID, TX_REVERTED, TX_REJECTED, WAIT_TIMEOUT; BRIDGE_REFUNDED when THORChain refunded the deposit or an IBC transfer was refunded; FORWARD_FAILED when a route through a Noble forwarding account did not deliver after its deposit; sponsored steps RELAY_DROPPED, RELAY_FEE_CEILING, RELAY_LOST, FEE_PAYER_UNAVAILABLE), an error catalog code (e.g. SPONSORSHIP_UNAVAILABLE; QUOTE_PRICE_CHANGED when a later leg's price moved beyond the quote's slippage before its step was issued), a build verdict, or the reason an expired swap ended",
  })
  reason!: string;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    nullable: true,
    description:
      "What is known: step, chain, kind, message, txHash; for QUOTE_PRICE_CHANGED the route's expectedAmountOut and minAmountOut at the new price, the quoted ones, and heldToken (what the user holds instead, on its chain); for BRIDGE_REFUNDED refundTxIds, the refund's transactions (as THORChain names them, the source chain's IBC timeout or acknowledgement, or the devnet bridge's Bitcoin vault refund); for FORWARD_FAILED payoutTxHash, packet and fundsAt ({chain, address, holder, recovery}: where the funds are and how they are recovered)",
  })
  details!: Record<string, unknown> | null;
}

/** An object or null, spelled as JSON Schema 2020 reads it (a nullable $ref would also have to match the object). */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
const orNull = (model: Function): { oneOf: Array<Record<string, string>> } => ({
  oneOf: [{ $ref: getSchemaPath(model) }, { type: 'null' }],
});

@ApiExtraModels(SwapFailureDto, QuotedSwapDto)
export class SwapResourceDto implements SwapResource {
  @ApiProperty() swapId!: string;
  @ApiProperty({
    enum: [...SWAP_STATUSES],
    description: 'planning, awaiting_signature, submitted, confirming, completed, failed or expired',
  })
  status!: SwapStatus;
  @ApiProperty({
    type: [SwapStepResourceDto],
    description: 'Every step in signing order (empty for swaps built before steps were recorded)',
  })
  steps!: SwapStepResourceDto[];
  @ApiProperty({ ...orNull(SwapFailureDto), description: 'Set when the swap failed or expired' })
  failure!: SwapFailureDto | null;
  @ApiProperty({
    ...orNull(QuotedSwapDto),
    description:
      'What the quote promised for the route built (null for swaps built before it was recorded). The amounts a completed swap actually moved are not ' +
      'reported: read the step transactions on chain',
  })
  quoted!: QuotedSwapDto | null;
  @ApiProperty({ type: 'integer' }) createdAtMs!: number;
  @ApiProperty({ type: 'integer' }) updatedAtMs!: number;
}

/** meta of GET /swaps: the envelope's meta plus the cursor of the next page. */
export class SwapListMetaDto extends ApiMetaDto {
  @ApiProperty({
    type: 'string',
    nullable: true,
    description:
      'Opaque cursor of the next page (pass as `cursor` with the same status); null on the last page',
  })
  nextCursor!: string | null;
}
