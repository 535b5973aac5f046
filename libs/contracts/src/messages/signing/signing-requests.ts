import { IsNotEmpty, IsString, MaxLength } from 'class-validator';

/**
 * `signing.submit` (signing.requests, gateway → signer-surface): the client's signed artifact for
 * the swap's current step. Idempotent on the transaction hash: the same rawTx again gets the same
 * answer and is not broadcast twice.
 * Errors: INVALID_SIGNED_TX, SWAP_NOT_FOUND, EXECUTION_TERMINAL, TX_REQUEST_NOT_YET_VALID,
 * tx_request_expired, TX_REQUEST_MISMATCH (details.mismatches names each differing field).
 */
export class SigningSubmitRequest {
  @IsString()
  @IsNotEmpty()
  swapId!: string;

  /** EVM: 0x-hex of the serialized signed transaction; Solana: base64 of the signed transaction. */
  @IsString()
  @IsNotEmpty()
  @MaxLength(262_144)
  rawTx!: string;
}

export interface SigningSubmitResult {
  swapId: string;
  stepIndex: number;
  txHash: string;
  status: 'submitted';
}

/**
 * `status.transaction` (signing.requests): on-chain status of any transaction.
 * Errors: UNKNOWN_CHAIN, INVALID_TX_HASH, TRANSACTION_NOT_FOUND, STATUS_UPSTREAM_ERROR,
 * SIGNING_SURFACE_UNAVAILABLE (chain family without a status adapter).
 */
export class TransactionStatusRequest {
  @IsString()
  @IsNotEmpty()
  chain!: string;

  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  txHash!: string;
}

/** The spec's TransactionStatus resource. */
export interface TransactionStatusResult {
  txHash: string;
  chain: string;
  status: 'pending' | 'confirmed' | 'failed';
  confirmedAtMs?: number;
  error?: string;
  /** The bridge transfer the transaction started, when it deposited into a bridge protocol. */
  bridge?: BridgeTransferView;
}

/**
 * A bridge transfer as its protocol identifies it (Across: the origin chain and deposit id) and
 * where it stands: `fill` is the relayer's payment on the destination chain.
 */
export interface BridgeTransferView {
  protocol: 'across';
  depositId: string;
  originChain: string;
  /** API id of the destination chain, or `eip155:<id>` for a chain this deployment does not list. */
  destinationChain: string;
  recipient: string;
  outputToken: string;
  /** Base units of outputToken the relayer pays. */
  outputAmount: string;
  fillDeadlineMs: number;
  fill: {
    /** `unknown`: the destination chain has no RPC here or did not answer. */
    status: 'pending' | 'filled' | 'expired' | 'unknown';
    txHash?: string;
    filledAtMs?: number;
  };
}
