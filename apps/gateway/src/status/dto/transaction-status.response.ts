import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { BridgeTransferView, TransactionStatusResult } from '@swapgw/contracts';

class BridgeFillResponse {
  @ApiProperty({
    enum: ['pending', 'filled', 'expired', 'unknown'],
    description:
      '`filled`: the relayer paid on the destination chain; `expired`: the fill deadline passed unfilled (the protocol refunds the depositor on the origin chain); `unknown`: the destination chain is not readable here',
  })
  status!: BridgeTransferView['fill']['status'];
  @ApiPropertyOptional({ description: 'The fill transaction on the destination chain' }) txHash?: string;
  @ApiPropertyOptional({ type: 'integer', description: 'Time of the block of the fill (ms since epoch)' })
  filledAtMs?: number;
}

/** A bridge transfer as its protocol identifies it, and its fill. */
class BridgeTransferResponse implements BridgeTransferView {
  @ApiProperty({ enum: ['across'] }) protocol!: 'across';
  @ApiProperty({ description: 'The deposit id the protocol gave the transfer on the origin chain' })
  depositId!: string;
  @ApiProperty() originChain!: string;
  @ApiProperty({ description: 'Chain id of GET /chains, or eip155:<id> for a chain not listed here' })
  destinationChain!: string;
  @ApiProperty() recipient!: string;
  @ApiProperty() outputToken!: string;
  @ApiProperty({ description: 'Base units of outputToken the relayer pays' }) outputAmount!: string;
  @ApiProperty({ type: 'integer' }) fillDeadlineMs!: number;
  @ApiProperty({ type: BridgeFillResponse }) fill!: BridgeFillResponse;
}

/** The spec's TransactionStatus (data of the envelope). */
export class TransactionStatusResponse implements TransactionStatusResult {
  @ApiProperty() txHash!: string;
  @ApiProperty() chain!: string;
  @ApiProperty({ enum: ['pending', 'confirmed', 'failed'] }) status!: 'pending' | 'confirmed' | 'failed';
  @ApiPropertyOptional({
    type: 'integer',
    description: 'Time of the block that included it (ms since epoch)',
  })
  confirmedAtMs?: number;
  @ApiPropertyOptional({ description: 'Failure reason (the revert reason when readable)' }) error?: string;
  @ApiPropertyOptional({
    type: BridgeTransferResponse,
    description:
      'A confirmed deposit into a bridge protocol (an Across SpokePool): the transfer and its fill',
  })
  bridge?: BridgeTransferResponse;
}
