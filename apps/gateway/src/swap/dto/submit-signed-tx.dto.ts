import { ApiProperty } from '@nestjs/swagger';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';

/** POST /swap/{swapId}/signing body. */
export class SubmitSignedTxDto {
  @ApiProperty({
    description:
      'What the wallet signed, by payload type: evm-transaction: 0x-hex of the serialized signed transaction; evm-typed-data: the 0x ' +
      'signature (65 bytes) of the typed data; solana-versioned-transaction: base64 of the signed versioned transaction; bitcoin-psbt: ' +
      'the PSBT signed by the wallet (base64 or hex, its inputs finalized or not) or the finalized transaction (hex)',
  })
  @IsString()
  @IsNotEmpty()
  @MaxLength(262_144)
  rawTx!: string;
}
