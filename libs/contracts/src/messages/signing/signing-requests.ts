import { IsNotEmpty, IsOptional, IsString, Matches, MaxLength, ValidateIf } from 'class-validator';
import { EVM_TX_HASH } from '../chain-formats';

/**
 * `signing.submit` (signing.requests, gateway → signer-surface): the client's signed artifact for
 * the swap's current step (`rawTx`), or the hash of the transaction a wallet sent itself
 * (`txHash`: a user-paid `evm-transaction` step only; read from the chain and compared with the
 * payload's from, to, data, value and chainId). Exactly one of them. Idempotent on the transaction
 * hash: the same rawTx or txHash again gets the same answer and is not broadcast twice.
 * Errors: INVALID_SIGNED_TX, VALIDATION_FAILED (both or neither), TX_HASH_NOT_ACCEPTED,
 * TRANSACTION_NOT_FOUND (the chain does not know txHash), SWAP_NOT_FOUND, EXECUTION_TERMINAL,
 * TX_REQUEST_NOT_YET_VALID, tx_request_expired, TX_REQUEST_MISMATCH (details.mismatches names each
 * differing field).
 */
export class SigningSubmitRequest {
  @IsString()
  @IsNotEmpty()
  swapId!: string;

  /** EVM: 0x-hex of the serialized signed transaction; Solana: base64 of the signed transaction. */
  @ValidateIf((request: SigningSubmitRequest) => request.txHash === undefined || request.rawTx !== undefined)
  @IsString()
  @IsNotEmpty()
  @MaxLength(262_144)
  rawTx?: string;

  /** The hash of the transaction the wallet sent itself (EIP-1193 eth_sendTransaction). */
  @IsOptional()
  @Matches(EVM_TX_HASH)
  txHash?: string;
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
