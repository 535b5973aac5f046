import { Type } from 'class-transformer';
import {
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  Min,
  ValidateNested,
} from 'class-validator';
import type { SigningClientHints, SigningPayload } from '../signing';
import { SWAP_STATUSES, SwapStatus } from './swap-message-types';
import { TX_HASH } from '../chain-formats';

/** EVM transaction hash, or a Solana transaction id (base58 of a 64-byte signature). */

/** `{ current, total }`: 1-based number of the signing step and the swap's step count. */
export class SwapStepPosition {
  @IsInt()
  @Min(1)
  current!: number;

  @IsInt()
  @Min(1)
  total!: number;
}

abstract class SwapEventBase {
  @IsString()
  @IsNotEmpty()
  swapId!: string;

  /** The swap's status after this event: what a read model shows. */
  @IsIn(SWAP_STATUSES)
  status!: SwapStatus;
}

/** `swap.created`: the swap and its steps exist; step 1's payload is being prepared. */
export class SwapCreatedEvent extends SwapEventBase {
  @IsString()
  @IsNotEmpty()
  owner!: string;

  @IsString()
  @IsNotEmpty()
  quoteId!: string;

  @IsString()
  @IsNotEmpty()
  routeId!: string;

  @IsString()
  @IsNotEmpty()
  fromChain!: string;

  @IsString()
  @IsNotEmpty()
  toChain!: string;

  @IsString()
  @IsNotEmpty()
  userAddress!: string;

  /** 0 for a build the planner refused (a failed swap with no steps; its swap.failed follows). */
  @IsInt()
  @Min(0)
  stepCount!: number;

  @IsInt()
  @Min(0)
  createdAtMs!: number;
}

/** `swap.signing-ready`: the current step can be signed until `expiresAtMs`. */
export class SwapSigningReadyEvent extends SwapEventBase {
  @ValidateNested()
  @Type(() => SwapStepPosition)
  step!: SwapStepPosition;

  @IsObject()
  payload!: SigningPayload;

  @IsInt()
  @Min(0)
  expiresAtMs!: number;

  @IsInt()
  @Min(0)
  readyAtMs!: number;

  @IsObject()
  executionHints!: Record<string, unknown>;

  @IsObject()
  clientHints!: SigningClientHints | Record<string, string>;
}

/**
 * `swap.signing-pending`: no payload can be signed right now (next step being prepared, waiting for
 * bridged funds, or a refresh of an expired payload). `readyAtMs` is an estimate when known.
 */
export class SwapSigningPendingEvent extends SwapEventBase {
  @ValidateNested()
  @Type(() => SwapStepPosition)
  step!: SwapStepPosition;

  @IsOptional()
  @IsInt()
  @Min(0)
  readyAtMs?: number;

  @IsString()
  @IsNotEmpty()
  reason!: string;
}

/** An event about the current step's broadcast transaction. */
abstract class SwapStepTransactionEvent extends SwapEventBase {
  @ValidateNested()
  @Type(() => SwapStepPosition)
  step!: SwapStepPosition;

  @IsString()
  @IsNotEmpty()
  chain!: string;

  @Matches(TX_HASH)
  txHash!: string;
}

/** `swap.step-submitted`: the signed transaction of a step was broadcast. */
export class SwapStepSubmittedEvent extends SwapStepTransactionEvent {}

/**
 * `swap.step-confirming`: a step's transaction is in block `blockNumber` with `confirmations` of the
 * `confirmationsRequired` the signer waits for (the fields of `signing.step-included`).
 */
export class SwapStepConfirmingEvent extends SwapStepTransactionEvent {
  @IsInt()
  @Min(0)
  blockNumber!: number;

  @IsInt()
  @Min(0)
  confirmations!: number;

  @IsInt()
  @Min(1)
  confirmationsRequired!: number;
}

/** `swap.step-confirmed`: a step's transaction is confirmed (or the step was skipped: no txHash). */
export class SwapStepConfirmedEvent extends SwapEventBase {
  @ValidateNested()
  @Type(() => SwapStepPosition)
  step!: SwapStepPosition;

  @IsString()
  @IsNotEmpty()
  chain!: string;

  @IsOptional()
  @Matches(TX_HASH)
  txHash?: string;

  /** True when the step needed no transaction (e.g. allowance already sufficient). */
  @IsOptional()
  skipped?: boolean;
}

/** The states of an IBC packet a step sent (see IbcPacketProgress in libs/chains). */
export const SWAP_PACKET_STATES = ['sent', 'received', 'acknowledged', 'timed_out'] as const;
export type SwapPacketState = (typeof SWAP_PACKET_STATES)[number];

/** An ICS-20 packet a step's transaction sent, where its chains' events put it. */
export class SwapStepPacket {
  @IsIn(SWAP_PACKET_STATES)
  state!: SwapPacketState;

  @Matches(/^\d+$/)
  sequence!: string;

  @IsString()
  @IsNotEmpty()
  sourceChannel!: string;

  @IsOptional()
  @IsString()
  destinationChain!: string | null;

  @IsString()
  @IsNotEmpty()
  destinationChannel!: string;

  @IsOptional()
  @IsInt()
  timeoutAtMs!: number | null;

  @IsOptional()
  @Matches(TX_HASH)
  receivedTxHash!: string | null;

  @IsOptional()
  @Matches(TX_HASH)
  settledTxHash!: string | null;

  @IsOptional()
  @IsString()
  acknowledgementError!: string | null;

  @IsBoolean()
  refunded!: boolean;
}

/**
 * `swap.step-packet`: the IBC packet of a step's transaction moved (sent, received on its
 * destination, acknowledged, or timed out); the step stays current until it is acknowledged (then
 * `swap.step-confirmed`) or refunded (then `swap.failed`, BRIDGE_REFUNDED).
 */
export class SwapStepPacketEvent extends SwapStepTransactionEvent {
  @ValidateNested()
  @Type(() => SwapStepPacket)
  packet!: SwapStepPacket;
}

/**
 * The phases of a swap through THORChain, read from THORNode's GET /thorchain/tx/status/{hash} stages
 * (see thorchainSwapProgress in libs/chains): the first unfinished stage names it.
 */
export const SWAP_THORCHAIN_PHASES = [
  'not-observed',
  'confirming',
  'swapping',
  'streaming',
  'outbound-delay',
  'outbound-signing',
  'completed',
  'refunded',
] as const;
export type SwapThorchainPhase = (typeof SWAP_THORCHAIN_PHASES)[number];

/** A streaming swap's progress, as THORNode's `stages.swap_status.streaming` tells it. */
export class SwapThorchainStreaming {
  /** Sub-swaps done. */
  @IsInt()
  @Min(0)
  count!: number;

  /** Sub-swaps planned. */
  @IsInt()
  @Min(1)
  quantity!: number;
}

/** Where THORChain is with the swap a deposit step asked for, from THORNode's tx/status of its hash. */
export class SwapStepThorchain {
  @IsIn(SWAP_THORCHAIN_PHASES)
  phase!: SwapThorchainPhase;

  /** Phase `streaming`: sub-swaps done and planned; null otherwise. */
  @IsOptional()
  @ValidateNested()
  @Type(() => SwapThorchainStreaming)
  streaming!: SwapThorchainStreaming | null;

  /** The outbounds THORChain sent (payout, or refund), ids as THORNode writes them (`out_txs[].id`). */
  @IsArray()
  @IsString({ each: true })
  @IsNotEmpty({ each: true })
  outTxIds!: string[];
}

/**
 * `swap.step-thorchain`: THORChain's phase of a deposit step's swap changed (confirming, swapping or
 * streaming, outbound delay, outbound signing, completed or refunded); the step stays current until
 * THORChain completed it (then `swap.step-confirmed`) or refunded it (then `swap.failed`,
 * BRIDGE_REFUNDED).
 */
export class SwapStepThorchainEvent extends SwapStepTransactionEvent {
  @ValidateNested()
  @Type(() => SwapStepThorchain)
  thorchain!: SwapStepThorchain;
}

/** `swap.completed`: every step confirmed. */
export class SwapCompletedEvent extends SwapEventBase {
  @IsInt()
  @Min(0)
  completedAtMs!: number;
}

/** `swap.failed`: terminal; `reason` is an ErrorCatalog code, `details` what is known. */
export class SwapFailedEvent extends SwapEventBase {
  @IsString()
  @IsNotEmpty()
  reason!: string;

  @IsObject()
  details!: Record<string, unknown>;
}

/** `swap.expired`: terminal; a step's deadline passed before it was confirmed. */
export class SwapExpiredEvent extends SwapEventBase {
  @IsString()
  @IsNotEmpty()
  reason!: string;
}
