import { ApiProperty } from '@nestjs/swagger';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';

/** POST /swap/{swapId}/signing body. */
export class SubmitSignedTxDto {
  @ApiProperty({ description: 'Signed transaction: EVM 0x-hex of the serialized signed transaction; Solana base64 of the signed versioned transaction' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(262_144)
  rawTx!: string;
}
