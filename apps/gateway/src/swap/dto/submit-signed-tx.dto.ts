import { ApiPropertyOptional } from '@nestjs/swagger';
import { EVM_TX_HASH } from '@swapgw/contracts';
import { IsNotEmpty, IsString, Matches, MaxLength, ValidateBy, ValidateIf } from 'class-validator';

/** Exactly one of rawTx and txHash: reported on rawTx (both sent, or neither). */
const ExactlyOneOfRawTxAndTxHash = (): PropertyDecorator =>
  ValidateBy({
    name: 'exactlyOneOfRawTxAndTxHash',
    validator: {
      validate: (_value, args) => {
        const body = args?.object as Partial<SubmitSignedTxDto>;
        return (body.rawTx === undefined) !== (body.txHash === undefined);
      },
      defaultMessage: () =>
        'send exactly one of rawTx (what the wallet signed) and txHash (a transaction the wallet sent itself)',
    },
  });

/** POST /swap/{swapId}/signing body: exactly one of `rawTx` and `txHash`. */
export class SubmitSignedTxDto {
  @ApiPropertyOptional({
    description:
      'What the wallet signed, by payload type: evm-transaction: 0x-hex of the serialized signed transaction; evm-typed-data: the 0x ' +
      'signature (65 bytes) of the typed data; solana-versioned-transaction: base64 of the signed versioned transaction; bitcoin-psbt: ' +
      'the PSBT signed by the wallet (base64 or hex, its inputs finalized or not) or the finalized transaction (hex). ' +
      'Exactly one of rawTx and txHash.',
  })
  @ValidateIf((body: SubmitSignedTxDto) => body.rawTx !== undefined || body.txHash === undefined)
  @ExactlyOneOfRawTxAndTxHash()
  @IsString()
  @IsNotEmpty()
  @MaxLength(262_144)
  rawTx?: string;

  @ApiPropertyOptional({
    description:
      'Instead of rawTx, for a user-paid evm-transaction step only: the hash of the transaction the wallet sent itself ' +
      '(EIP-1193 eth_sendTransaction with the payload fields, as MetaMask and other injected wallets do). Its from, to, data, ' +
      "value and chainId must be the payload's; nonce and gas are the wallet's. Typed-data and sponsored steps: 400 TX_HASH_NOT_ACCEPTED.",
    pattern: EVM_TX_HASH.source,
    example: '0x9c1e0f3b6a2d4c8e1f7a5b3c9d0e2f4a6b8c1d3e5f7a9b0c2d4e6f8a1b3c5d7e',
  })
  @ValidateIf((body: SubmitSignedTxDto) => body.txHash !== undefined)
  @Matches(EVM_TX_HASH, { message: 'txHash must be 0x followed by 64 hex digits' })
  txHash?: string;
}
