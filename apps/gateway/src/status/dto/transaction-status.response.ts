import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { TransactionStatusResult } from '@swapgw/contracts';

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
}
