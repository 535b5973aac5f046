import { ApiProperty } from '@nestjs/swagger';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';

/** Query of GET /status/transaction/{txHash}. */
export class TransactionStatusQuery {
  @ApiProperty({
    description: 'Chain identifier from GET /chains (e.g. devnet-a, ethereum, bitcoin)',
    example: 'devnet-a',
  })
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  chainRef!: string;
}
