import { ApiProperty } from '@nestjs/swagger';
import { SWAP_PACKET_STATES, type SwapPacketState, type SwapStepPacket } from '@swapgw/contracts';

const COSMOS_HASH = { type: 'string', pattern: '^[0-9A-F]{64}$' } as const;

/** The ICS-20 packet a Cosmos transfer step sent, as its chains' events (CometBFT) tell where it is. */
export class IbcPacketDto implements SwapStepPacket {
  @ApiProperty({
    enum: [...SWAP_PACKET_STATES],
    description:
      'sent (committed on the source chain), received (run by the destination, its acknowledgement not back yet), ' +
      'acknowledged (the source took the acknowledgement: the step is done, or refunded when acknowledgementError is set), ' +
      'timed_out (the destination passed the timeout without receiving it: the coin went back to the sender)',
  })
  state!: SwapPacketState;
  @ApiProperty({ pattern: '^\\d+$', description: "The packet's sequence on its source channel" })
  sequence!: string;
  @ApiProperty({ example: 'channel-0', description: 'The ICS-20 channel it left the source chain on' })
  sourceChannel!: string;
  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'Chain id of its destination (GET /chains); null when the channel leads to no listed chain',
  })
  destinationChain!: string | null;
  @ApiProperty({ example: 'channel-0', description: 'The channel it arrives on at the destination' })
  destinationChannel!: string;
  @ApiProperty({
    type: 'integer',
    nullable: true,
    description:
      "The packet's timeout (ms since epoch): past it on the destination's clock, it can only time out",
  })
  timeoutAtMs!: number | null;
  @ApiProperty({
    ...COSMOS_HASH,
    nullable: true,
    description: "The destination's transaction that received it (the relayer's MsgRecvPacket)",
  })
  receivedTxHash!: string | null;
  @ApiProperty({
    ...COSMOS_HASH,
    nullable: true,
    description:
      "The source chain's transaction that took its acknowledgement or timeout (MsgAcknowledgement / MsgTimeout): the refund's, when refunded",
  })
  settledTxHash!: string | null;
  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'The error acknowledgement the destination answered (the coin refunded); null otherwise',
  })
  acknowledgementError!: string | null;
  @ApiProperty({
    description:
      'Whether the coin went back to the sender on the source chain (timed out, or an error acknowledgement)',
  })
  refunded!: boolean;
}
