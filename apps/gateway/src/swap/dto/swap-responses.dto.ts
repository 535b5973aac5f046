import {
  ApiExtraModels,
  ApiProperty,
  ApiPropertyOptional,
  ApiPropertyOptions,
  getSchemaPath,
} from '@nestjs/swagger';
import { SIGNING_PAYLOAD_MODELS, SIGNING_PAYLOADS } from './signing-payload.dto';
import { RouteIssueDto } from '../../quote/dto/quote-responses';
import type {
  AsyncSigningResponse,
  PendingTransaction,
  SigningEnvelope,
  SubmittedSigningResponse,
  SyncSigningResponse,
} from '../swap-responses';

/** Swagger shapes of the swap responses (data of the envelope); the types live in swap-responses.ts. */
export class SigningStepDto {
  @ApiProperty({ type: 'integer', minimum: 1 }) current!: number;
  @ApiProperty({ type: 'integer', minimum: 1 }) total!: number;
}

const DECIMAL_STRING = '^(0|[1-9][0-9]*)$';
const decimal = (description: string) => ({
  required: false,
  type: String,
  pattern: DECIMAL_STRING,
  description,
});

/** What the wallet needs besides the payload; which fields are present depends on the chain family and on sponsorship. */
export class ExecutionHintsDto {
  @ApiProperty(decimal('EVM: estimated gas units')) gasEstimate?: string;
  @ApiProperty(decimal('EVM: gas limit of the transaction')) gasLimit?: string;
  @ApiProperty(decimal('EVM: wei per gas')) maxFeePerGas?: string;
  @ApiProperty(decimal('EVM: wei per gas')) maxPriorityFeePerGas?: string;
  @ApiProperty(decimal('EVM: gasLimit × maxFeePerGas, the most the transaction can cost (wei)'))
  estimatedFeeWei?: string;
  @ApiProperty({
    required: false,
    enum: ['service'],
    description: 'Present on sponsored steps: the service pays the gas',
  })
  gasPaidBy?: 'service';
  @ApiProperty(decimal('EVM typed data: what the wallet pays ("0")')) userPaysWei?: string;
  @ApiProperty(decimal('EVM covered transaction: wei sent to the wallet before it signs'))
  gasCoveredWei?: string;
  @ApiProperty({
    required: false,
    description: 'EVM covered transaction: the transaction that sent gasCoveredWei',
  })
  gasDropTxHash?: string;
  @ApiProperty({ required: false, description: "Solana: the fee payer (the service's on sponsored steps)" })
  feePayer?: string;
  @ApiProperty({ required: false, description: 'Solana: blockhash of the transaction' })
  recentBlockhash?: string;
  @ApiProperty(decimal('Solana: last block height at which the transaction lands'))
  lastValidBlockHeight?: string;
  @ApiProperty(decimal('Solana: the most the transaction can cost (lamports)')) estimatedFeeLamports?: string;
  @ApiProperty(decimal('Solana sponsored: what the wallet pays ("0")')) userPaysLamports?: string;
  @ApiProperty(decimal('Solana sponsored: rent of accounts the service pays'))
  rentPaidByServiceLamports?: string;
}

export class ClientHintsDto {
  @ApiProperty({ required: false, description: 'e.g. MetaMask, Phantom' }) recommendedWallet?: string;
  @ApiProperty({ required: false, description: 'Human chain name (e.g. `Devnet A`)' }) network?: string;
  @ApiProperty({
    required: false,
    enum: ['approve', 'swap', 'bridge'],
    description: 'What the step does on chain',
  })
  action?: 'approve' | 'swap' | 'bridge';
}

@ApiExtraModels(...SIGNING_PAYLOAD_MODELS)
export class ReadySigningEnvelopeDto implements SigningEnvelope {
  @ApiProperty({ type: SigningStepDto }) step!: SigningStepDto;
  @ApiProperty({
    type: 'integer',
    nullable: true,
    description:
      'Expiry of this payload (ms since epoch); after it, GET the signing endpoint for a fresh one',
  })
  expiresAtMs!: number | null;
  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: 'When the payload became signable (ms since epoch), when known',
  })
  readyAtMs!: number | null;
  @ApiProperty({
    oneOf: SIGNING_PAYLOADS.map(({ model }) => ({ $ref: getSchemaPath(model) })),
    discriminator: {
      propertyName: 'type',
      mapping: Object.fromEntries(SIGNING_PAYLOADS.map(({ type, model }) => [type, getSchemaPath(model)])),
    },
    description:
      'What the wallet signs, by type: ' +
      SIGNING_PAYLOADS.map(({ type, howToSign }) => `${type} (${howToSign})`).join(', '),
  })
  payload!: Record<string, unknown>;
  @ApiProperty({
    type: ExecutionHintsDto,
    description:
      'EVM: gasEstimate, gasLimit, maxFeePerGas, maxPriorityFeePerGas, estimatedFeeWei; on sponsored steps also gasPaidBy "service" ' +
      '(typed data: userPaysWei "0"; covered transaction: gasCoveredWei sent to the wallet first, gasDropTxHash); ' +
      'Solana: feePayer, recentBlockhash, lastValidBlockHeight, estimatedFeeLamports; on sponsored steps also gasPaidBy "service", ' +
      'userPaysLamports "0" and rentPaidByServiceLamports (feePayer is then the service\'s: the wallet signs its own slot only); ' +
      'Bitcoin: txid (fixed before signing), minerFeeSats, feeRateSatPerVbyte, vsize, minerFeePaidBy "service", feeWallet',
  })
  executionHints!: Record<string, unknown>;
  @ApiProperty({ type: ClientHintsDto }) clientHints!: Record<string, unknown>;
}

export class PendingSigningEnvelopeDto implements SigningEnvelope {
  @ApiProperty({ type: 'null', description: 'Always null in a 202: no step is signable yet' }) step!: null;
  @ApiProperty({ type: 'null', description: 'Always null in a 202: no payload is issued yet' })
  expiresAtMs!: null;
  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: 'Estimate of when the payload will be ready, when known (e.g. bridged funds awaited)',
  })
  readyAtMs!: number | null;
}

/** POST /swap/build: the route's price checked at build (ours: issue 30, point 6; human units of tokenOut). */
export class BuildPriceCheckDto {
  @ApiProperty({
    enum: ['within-slippage', 'accepted'],
    description:
      "within-slippage: the first leg still pays at least the quote's minimum, the payload binds the quote's minAmountOut; " +
      'accepted: it moved beyond the slippage and the build took acceptedMinAmountOut: the payload binds the new price (minAmountOut below)',
  })
  outcome!: 'within-slippage' | 'accepted';
  @ApiProperty({ example: '2990.1', description: "The route's output at the price read at build" })
  expectedAmountOut!: string;
  @ApiProperty({ example: '2975.2', description: 'The least output the payload binds' })
  minAmountOut!: string;
  @ApiProperty({ example: '3000.4' }) quotedExpectedAmountOut!: string;
  @ApiProperty({ example: '2985.4' }) quotedMinAmountOut!: string;
  @ApiProperty({ type: 'integer', description: 'When the price was read (ms since epoch)' })
  checkedAtMs!: number;
}

/** What POST /swap/build checked, in its sync and async answers alike. */
const BUILD_ISSUES_PROPERTY: ApiPropertyOptions = {
  type: [RouteIssueDto],
  description:
    "POST /swap/build only: the route's first leg checked against userAddress (and the build's recipient) as POST /quote with userAddress checks it (same codes). " +
    "[] = checked, nothing found; absent on polls, and on a build whose check did not answer within the build's wait (waitForTxRequestMs)",
};
const BUILD_PRICE_CHECK_PROPERTY: ApiPropertyOptions = {
  type: BuildPriceCheckDto,
  description:
    "POST /swap/build only, when the route's first leg is a swap: its price read again at build. Absent on polls, and when the first leg is a bridge paying a fixed amount",
};

export class SyncSigningResponseDto implements SyncSigningResponse {
  @ApiProperty() swapId!: string;
  @ApiProperty({ enum: ['sync'] }) mode!: 'sync';
  @ApiProperty({ enum: ['sign'] }) nextAction!: 'sign';
  @ApiProperty({ description: 'Swap status: awaiting_signature' }) status!: string;
  @ApiProperty({ type: ReadySigningEnvelopeDto }) signing!: ReadySigningEnvelopeDto;
  @ApiPropertyOptional(BUILD_ISSUES_PROPERTY) issues?: RouteIssueDto[];
  @ApiPropertyOptional(BUILD_PRICE_CHECK_PROPERTY) priceCheck?: BuildPriceCheckDto;
}

export class PendingTransactionDto implements PendingTransaction {
  @ApiPropertyOptional({
    description:
      'The chain the transaction is on (API chain id, as in GET /chains); absent only on swaps recorded before it was kept',
    example: 'bitcoin-devnet',
  })
  chain?: string;
  @ApiProperty({
    description:
      "The transaction's id as the chain's explorers write it: 0x-hex on EVM, base58 signature on Solana, 64 hex characters (no 0x) on Bitcoin",
  })
  txHash!: string;
  @ApiProperty({
    type: 'integer',
    minimum: 0,
    description: 'Confirmations so far (0 until the transaction is in a block)',
  })
  confirmations!: number;
  @ApiProperty({
    type: 'integer',
    nullable: true,
    description:
      'Confirmations awaited before the next step (signer-surface CONFIRMATIONS_REQUIRED; 1 on Solana: `confirmed` commitment); null until the transaction is in a block',
  })
  confirmationsRequired!: number | null;
}

export class AsyncSigningResponseDto implements AsyncSigningResponse {
  @ApiProperty() swapId!: string;
  @ApiProperty({ enum: ['async'] }) mode!: 'async';
  @ApiProperty({ enum: ['poll'] }) nextAction!: 'poll';
  @ApiProperty({ type: 'integer', description: 'Suggested wait before the next GET /swap/{swapId}/signing' })
  pollAfterMs!: number;
  @ApiProperty({
    description:
      'Swap status: planning (payload being built, funds awaited, or a fresh payload after expiry), submitted (the signed transaction was broadcast) or confirming (it is in a block, waiting for confirmations)',
  })
  status!: string;
  @ApiProperty({ type: PendingSigningEnvelopeDto }) signing!: PendingSigningEnvelopeDto;
  @ApiProperty({
    type: PendingTransactionDto,
    required: false,
    description: "The current step's transaction while the status is submitted or confirming",
  })
  transaction?: PendingTransactionDto;
  @ApiPropertyOptional(BUILD_ISSUES_PROPERTY) issues?: RouteIssueDto[];
  @ApiPropertyOptional(BUILD_PRICE_CHECK_PROPERTY) priceCheck?: BuildPriceCheckDto;
}

export class SubmittedSigningResponseDto implements SubmittedSigningResponse {
  @ApiProperty() swapId!: string;
  @ApiProperty() txHash!: string;
  @ApiProperty({ type: SigningStepDto }) step!: SigningStepDto;
  @ApiProperty({ enum: ['submitted'] }) status!: 'submitted';
  @ApiProperty({ enum: ['poll'] }) nextAction!: 'poll';
  @ApiProperty({ type: 'integer' }) pollAfterMs!: number;
}
