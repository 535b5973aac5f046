import { ApiExtraModels, ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { SwapEventTypes } from '@swapgw/contracts';
import {
  PendingTransactionDto,
  ReadySigningEnvelopeDto,
  SigningStepDto,
} from '../../swap/dto/swap-responses.dto';
import { IbcPacketDto } from '../../swap/dto/cosmos/ibc-packet.dto';
import { ThorchainProgressDto } from '../../swap/dto/thorchain/thorchain-progress.dto';

/** The transaction whose settlement swap.step-packet or swap.step-thorchain tells about. */
export class SwapPacketTransactionDto {
  @ApiProperty({ type: 'string', nullable: true }) chain!: string | null;
  @ApiProperty({ type: 'string', nullable: true }) txHash!: string | null;
}

/** Fields every event's data carries. */
export class SwapStreamEventBaseDto {
  @ApiProperty({ format: 'uuid' }) swapId!: string;
  @ApiProperty({
    description:
      'Swap status after the event (planning, awaiting_signature, submitted, confirming, completed, failed, expired)',
  })
  status!: string;
  @ApiProperty({
    type: SigningStepDto,
    nullable: true,
    description:
      'The current step (after swap.step-confirmed: the next one); null before the planner counted the steps',
  })
  step!: SigningStepDto | null;
  @ApiProperty({ description: 'When the gateway projected the event (ms since epoch)' }) atMs!: number;
}

/** swap.created, swap.signing-pending, swap.step-confirmed, swap.completed. */
export class SwapStateEventDataDto extends SwapStreamEventBaseDto {
  @ApiPropertyOptional({
    type: 'integer',
    nullable: true,
    description: 'swap.signing-pending: estimate of when the payload will be ready',
  })
  readyAtMs?: number | null;
  @ApiPropertyOptional({
    type: 'string',
    nullable: true,
    description: 'swap.signing-pending: why nothing can be signed yet',
  })
  pendingReason?: string | null;
  @ApiPropertyOptional({
    description: 'The last transaction of the swap (swap.step-confirmed, swap.completed)',
  })
  lastTxHash?: string;
}

/** swap.signing-ready: the body GET /swap/{swapId}/signing answers 200 with, plus the common fields. */
export class SwapSigningReadyEventDataDto extends SwapStreamEventBaseDto {
  @ApiProperty({ enum: ['sync'] }) mode!: 'sync';
  @ApiProperty({ enum: ['sign'] }) nextAction!: 'sign';
  @ApiProperty({ type: ReadySigningEnvelopeDto }) signing!: ReadySigningEnvelopeDto;
}

/** swap.step-submitted, swap.step-confirming. */
export class SwapTransactionEventDataDto extends SwapStreamEventBaseDto {
  @ApiPropertyOptional({
    type: PendingTransactionDto,
    description: "The step's transaction and its confirmations so far",
  })
  transaction?: PendingTransactionDto;
}

/** swap.step-packet: an IBC packet of a step moved (a Cosmos transfer's, or a forwarding route's). */
export class SwapPacketEventDataDto extends SwapStreamEventBaseDto {
  @ApiProperty({
    type: SwapPacketTransactionDto,
    description:
      "The step's transaction (its chain and its hash: 64 uppercase hex for a Cosmos transfer, 0x-prefixed " +
      'for a deposit on an EVM chain paying a Noble forwarding account, whose route goes on by IBC)',
  })
  transaction!: SwapPacketTransactionDto;
  @ApiProperty({
    type: IbcPacketDto,
    nullable: true,
    description: "The packet, where its chains' events put it",
  })
  packet!: IbcPacketDto | null;
}

/** swap.step-thorchain: THORChain's phase of a deposit's swap changed. */
export class SwapThorchainEventDataDto extends SwapStreamEventBaseDto {
  @ApiProperty({
    type: SwapPacketTransactionDto,
    description: "The deposit step's transaction (its chain and its hash: a Bitcoin txid, an EVM hash)",
  })
  transaction!: SwapPacketTransactionDto;
  @ApiProperty({
    type: ThorchainProgressDto,
    nullable: true,
    description: "THORChain's progress of the swap, from THORNode's tx/status of the deposit",
  })
  thorchain!: ThorchainProgressDto | null;
}

/** swap.failed, swap.expired. */
export class SwapEndedEventDataDto extends SwapStreamEventBaseDto {
  @ApiProperty({
    type: 'string',
    nullable: true,
    description:
      'Reason code (TX_REVERTED, TX_REJECTED, WAIT_TIMEOUT, BRIDGE_REFUNDED, FORWARD_FAILED, RELAY_DROPPED, RELAY_FEE_CEILING, RELAY_LOST, FEE_PAYER_UNAVAILABLE, SWAP_DEADLINE_PASSED, a build verdict, ...)',
  })
  reason!: string | null;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true }) details?: Record<string, unknown>;
}

/**
 * One Server-Sent Event of GET /swap/{swapId}/events, as the fields of its frame
 * (`id: <id>` / `event: <event>` / `data: <JSON>`): OpenAPI 3.1 has no way to describe a stream's items.
 */
@ApiExtraModels(
  SwapStateEventDataDto,
  SwapSigningReadyEventDataDto,
  SwapTransactionEventDataDto,
  SwapPacketEventDataDto,
  SwapThorchainEventDataDto,
  SwapEndedEventDataDto,
)
export class SwapStreamEventDto {
  @ApiProperty({
    description:
      'Event id (decimal integer, increasing within a swap); send it back as Last-Event-ID to resume',
  })
  id!: string;

  @ApiProperty({
    enum: Object.values(SwapEventTypes),
    description: 'The SSE event name: the swap event type',
  })
  event!: string;

  @ApiProperty({
    description:
      'One line of JSON. swap.signing-ready: SwapSigningReadyEventDataDto; swap.step-submitted / swap.step-confirming: SwapTransactionEventDataDto; ' +
      'swap.step-packet: SwapPacketEventDataDto; swap.step-thorchain: SwapThorchainEventDataDto; ' +
      'swap.failed / swap.expired: SwapEndedEventDataDto; the others: SwapStateEventDataDto',
    oneOf: [
      { $ref: getSchemaPath(SwapStateEventDataDto) },
      { $ref: getSchemaPath(SwapSigningReadyEventDataDto) },
      { $ref: getSchemaPath(SwapTransactionEventDataDto) },
      { $ref: getSchemaPath(SwapPacketEventDataDto) },
      { $ref: getSchemaPath(SwapThorchainEventDataDto) },
      { $ref: getSchemaPath(SwapEndedEventDataDto) },
    ],
  })
  data!:
    | SwapStateEventDataDto
    | SwapSigningReadyEventDataDto
    | SwapTransactionEventDataDto
    | SwapPacketEventDataDto
    | SwapThorchainEventDataDto
    | SwapEndedEventDataDto;
}
