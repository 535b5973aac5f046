import { ApiProperty } from '@nestjs/swagger';

// The `payload` union of a ready signing envelope, one schema per `type` (discriminator), so a
// generated client gets real types. The shapes live in libs/contracts (signing-payload.ts).

const DECIMAL = '^(0|[1-9][0-9]*)$';

export class EvmTransactionFieldsDto {
  @ApiProperty({ pattern: DECIMAL }) chainId!: string;
  @ApiProperty({ description: 'The signing wallet' }) from!: string;
  @ApiProperty() to!: string;
  @ApiProperty({ description: '0x-hex calldata' }) data!: string;
  @ApiProperty({ pattern: DECIMAL, description: 'Wei' }) value!: string;
  @ApiProperty({ pattern: DECIMAL }) nonce!: string;
  @ApiProperty({ pattern: DECIMAL }) gasLimit!: string;
  @ApiProperty({ pattern: DECIMAL }) maxFeePerGas!: string;
  @ApiProperty({ pattern: DECIMAL }) maxPriorityFeePerGas!: string;
}

/** The wallet's own transaction; on a sponsored swap its maximum fee was sent to the wallet first. */
export class EvmTransactionPayloadDto {
  @ApiProperty({ enum: ['evm-transaction'] }) type!: 'evm-transaction';
  @ApiProperty({
    type: EvmTransactionFieldsDto,
    description:
      'Signable as-is by ethers Wallet.signTransaction (EIP-1559 type 2). rawTx: the 0x-hex signed serialized transaction',
  })
  transaction!: EvmTransactionFieldsDto;
}

export class TypedDataFieldDto {
  @ApiProperty() name!: string;
  @ApiProperty() type!: string;
}

export class Eip712TypedDataDto {
  @ApiProperty({
    type: 'object',
    additionalProperties: { oneOf: [{ type: 'string' }, { type: 'integer' }] },
    description: 'EIP712Domain values: name, version (EIP-2612 only), chainId, verifyingContract',
  })
  domain!: Record<string, string | number>;
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'array', items: { $ref: '#/components/schemas/TypedDataFieldDto' } },
    description: 'Struct definitions, EIP712Domain included, as eth_signTypedData_v4 takes them',
  })
  types!: Record<string, TypedDataFieldDto[]>;
  @ApiProperty({ enum: ['Permit', 'PermitWitnessTransferFrom'] }) primaryType!: string;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'The values; every uint is a decimal string',
  })
  message!: Record<string, unknown>;
}

/**
 * A sponsored step: sign `typedData` with eth_signTypedData_v4 (ethers: signTypedData(domain,
 * types without EIP712Domain, message)); rawTx is the 0x 65-byte signature. The service's relayer
 * sends the transaction that carries it and pays its gas.
 */
export class EvmTypedDataPayloadDto {
  @ApiProperty({ enum: ['evm-typed-data'] }) type!: 'evm-typed-data';
  @ApiProperty({
    type: Eip712TypedDataDto,
    description:
      "primaryType Permit: the input token's EIP-2612 permit for Permit2 (once per token). primaryType PermitWitnessTransferFrom: " +
      'Permit2 may move exactly permitted.amount once, to the SwapGatewayRouter (spender), which must perform the leg the witness binds ' +
      '(SwapIntent / SwapV3Intent: path, amountOutMin, recipient, unwrapNative, deadline, integratorFees (each recipient and amount of the input token, paid out of permitted.amount before the swap); BridgeIntent / BridgeToIntent: destinationChainId, recipient, deadline, integratorFees (paid out of permitted.amount before the deposit); ' +
      'BridgeSwapIntent: the bridge deposit and the swap on the destination chain, which runs from this signature: destinationChainId, ' +
      'destinationRouter, path, amountOutMin, recipient, unwrapNative, deadline, integratorFees (paid on the source chain before the deposit); ' +
      'AcrossIntent: the Across deposit (destinationChainId, outputToken, outputAmount, recipient, Across quote terms), deadline, integratorFees (paid before the deposit); ' +
      'AcrossSwapIntent: the Across deposit and the Uniswap V3 swap on the destination chain, integratorFees (paid on the source chain before the deposit)). ' +
      'rawTx: the 0x signature (65 bytes)',
  })
  typedData!: Eip712TypedDataDto;
}

export class SolanaTransactionPayloadDto {
  @ApiProperty({ enum: ['solana-versioned-transaction'] }) type!: 'solana-versioned-transaction';
  @ApiProperty({
    description: 'Base64 of the unsigned v0 transaction; rawTx: base64 of it signed by the wallet',
  })
  transaction!: string;
}

export class BitcoinInputToSignDto {
  @ApiProperty({ type: 'integer', minimum: 0, description: 'Index of the input in the PSBT' }) index!: number;
  @ApiProperty({ description: "The wallet's address whose key signs the input" }) address!: string;
  @ApiProperty({
    type: [Number],
    example: [1],
    description:
      '1 (SIGHASH_ALL) on a P2WPKH input, 0 (Taproot default, which signs everything) on a P2TR one',
  })
  sighashTypes!: number[];
}

/**
 * A PSBT the wallet signs with `signPsbt` (Unisat `toSignInputs`, Xverse `inputsToSign`, Leather,
 * Ledger). The last input is the service's fee wallet's: it pays the whole miner fee and is signed
 * by the service once the user's signatures are checked.
 */
export class BitcoinPsbtPayloadDto {
  @ApiProperty({ enum: ['bitcoin-psbt'] }) type!: 'bitcoin-psbt';
  @ApiProperty({
    description:
      "BIP174 PSBT, base64. Inputs: the wallet's UTXOs (each with witnessUtxo; P2TR with tapInternalKey), then one input of the " +
      "service's fee wallet (not the wallet's to sign). Outputs: the payment (the bridge vault), an OP_RETURN memo naming the " +
      "destination, the wallet's change, the fee wallet's change. rawTx: the PSBT signed by the wallet (base64 or hex, its inputs " +
      'finalized or not) or the finalized transaction (hex)',
  })
  psbt!: string;
  @ApiProperty({ type: [BitcoinInputToSignDto], description: 'The inputs the wallet signs, and how' })
  inputsToSign!: BitcoinInputToSignDto[];
  @ApiProperty({
    enum: ['mainnet', 'testnet', 'regtest'],
    description: 'The network of the addresses (regtest on the devnet: bcrt1…)',
  })
  network!: 'mainnet' | 'testnet' | 'regtest';
}

export class CosmosSignDocDto {
  @ApiProperty({ format: 'byte', description: 'TxBody bytes (the messages, memo), base64' })
  bodyBytes!: string;
  @ApiProperty({
    format: 'byte',
    description:
      "AuthInfo bytes, base64: the wallet's one SignerInfo (its pubkey, SIGN_MODE_DIRECT, sequence) and the fee (gas limit, amount, granter: the service's fee granter under x/feegrant)",
  })
  authInfoBytes!: string;
  @ApiProperty({ example: 'cosmoshub-4' }) chainId!: string;
  @ApiProperty({ pattern: DECIMAL, description: "The signer's account number on the chain" })
  accountNumber!: string;
}

export class CosmosMsgDto {
  @ApiProperty({ example: '/ibc.applications.transfer.v1.MsgTransfer' }) typeUrl!: string;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'The message in proto3 JSON (camelCase)',
  })
  value!: Record<string, unknown>;
}

/**
 * What a Cosmos wallet signs (Keplr, Leap, Cosmostation, a cosmjs OfflineDirectSigner):
 * `signDirect(signDoc.chainId, signerAddress, signDoc)` with the bytes decoded from base64.
 */
export class CosmosSignDirectPayloadDto {
  @ApiProperty({ enum: ['cosmos-sign-direct'] }) type!: 'cosmos-sign-direct';
  @ApiProperty({ description: 'The signing wallet (bech32 of the chain)', example: 'cosmos1…' })
  signerAddress!: string;
  @ApiProperty({
    type: CosmosSignDocDto,
    description:
      "Exactly what Keplr's and Leap's signDirect take. rawTx: the signed TxRaw (base64) with these bodyBytes and authInfoBytes byte for byte and one signature",
  })
  signDoc!: CosmosSignDocDto;
  @ApiProperty({
    type: 'object',
    nullable: true,
    additionalProperties: true,
    description:
      'The legacy amino StdSignDoc of the same transaction (chain_id, account_number, sequence, fee, msgs, memo) for signAmino (Ledger); ' +
      'null when a message has no amino form. Signed this way, rawTx carries the issued body and auth info with the mode LEGACY_AMINO_JSON',
  })
  aminoSignDoc!: Record<string, unknown> | null;
  @ApiProperty({ type: [CosmosMsgDto], description: 'The messages, for display' }) msgs!: CosmosMsgDto[];
}

export const SIGNING_PAYLOAD_MODELS = [
  EvmTransactionPayloadDto,
  EvmTypedDataPayloadDto,
  SolanaTransactionPayloadDto,
  BitcoinPsbtPayloadDto,
  BitcoinInputToSignDto,
  CosmosSignDirectPayloadDto,
  CosmosSignDocDto,
  CosmosMsgDto,
  TypedDataFieldDto,
] as const;

/**
 * Each payload a wallet is handed, one entry per `type`, in the API's order (a new family's payload
 * is one entry here, beside its DTO): its DTO, and how a wallet signs it and what it sends back as
 * rawTx, its part of the payload field's description. The step's `payload` field (swap-responses.dto.ts)
 * is the `oneOf` of these, discriminated by `type`.
 */
export const SIGNING_PAYLOADS = [
  {
    type: 'evm-transaction',
    model: EvmTransactionPayloadDto,
    howToSign: 'sign the transaction; rawTx = signed serialized 0x-hex',
  },
  {
    type: 'evm-typed-data',
    model: EvmTypedDataPayloadDto,
    howToSign:
      'sign with eth_signTypedData_v4; rawTx = the 0x signature; the service relays it and pays the gas',
  },
  {
    type: 'solana-versioned-transaction',
    model: SolanaTransactionPayloadDto,
    howToSign: 'sign; rawTx = base64',
  },
  {
    type: 'bitcoin-psbt',
    model: BitcoinPsbtPayloadDto,
    howToSign:
      'signPsbt the inputs listed; rawTx = the signed PSBT, base64 or hex, or the finalized transaction, hex; the service signs its fee input and pays the miner',
  },
  {
    type: 'cosmos-sign-direct',
    model: CosmosSignDirectPayloadDto,
    howToSign:
      'signDirect the signDoc, or signAmino the aminoSignDoc; rawTx = the signed TxRaw, base64; the service pays the fee through x/feegrant',
  },
] as const satisfies readonly { type: string; model: new () => object; howToSign: string }[];
