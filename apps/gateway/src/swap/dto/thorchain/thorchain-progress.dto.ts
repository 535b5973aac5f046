import { ApiProperty } from '@nestjs/swagger';
import {
  SWAP_THORCHAIN_PHASES,
  type SwapStepThorchain,
  type SwapThorchainPhase,
  type SwapThorchainStreaming,
} from '@swapgw/contracts';

/** A streaming swap's sub-swaps, as THORNode's `stages.swap_status.streaming` counts them. */
export class ThorchainStreamingDto implements SwapThorchainStreaming {
  @ApiProperty({ type: 'integer', minimum: 0, description: 'Sub-swaps done (`streaming.count`)' })
  count!: number;
  @ApiProperty({ type: 'integer', minimum: 1, description: 'Sub-swaps planned (`streaming.quantity`)' })
  quantity!: number;
}

/**
 * Where THORChain is with the swap a deposit step asked for, read from THORNode's
 * GET /thorchain/tx/status/{hash} of the deposit: the first of its stages not completed.
 */
export class ThorchainProgressDto implements SwapStepThorchain {
  @ApiProperty({
    enum: [...SWAP_THORCHAIN_PHASES],
    description:
      'THORNode tx/status stages: not-observed (inbound_observed not completed), confirming (inbound_confirmation_counted ' +
      'or inbound_finalised not completed), swapping / streaming (swap_status pending, or swap_finalised not completed; ' +
      'streaming when THORChain splits it in sub-swaps), outbound-delay (outbound_delay not completed), outbound-signing ' +
      '(outbound_signed not completed), completed (the outbound signed: the step is confirmed), refunded (every planned ' +
      'outbound a refund: the step and the swap failed, BRIDGE_REFUNDED)',
  })
  phase!: SwapThorchainPhase;
  @ApiProperty({
    type: ThorchainStreamingDto,
    nullable: true,
    description: 'Phase streaming: the sub-swaps done and planned; null in every other phase',
  })
  streaming!: ThorchainStreamingDto | null;
  @ApiProperty({
    type: 'array',
    items: { type: 'string' },
    description:
      "The outbounds THORChain sent (the payout; a refund's when refunded), ids as THORNode writes them in out_txs " +
      '(a Bitcoin txid, an EVM hash in upper-case hex without 0x); empty before the outbound',
  })
  outTxIds!: string[];
}
