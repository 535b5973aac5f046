import type { TransactionStatusResult } from '@swapgw/contracts';
import type { Connection } from '@solana/web3.js';
import type { JsonRpcProvider } from 'ethers';
import type { ChainDescriptor, ChainFamily } from '../chain-descriptor';
import type { SignedTransactionArtifact } from './signed-artifact';

/**
 * What every listed chain answers, whatever its family: the form of its transaction ids and where a
 * transaction stands. A chain this deployment has no RPC or status API for still has one: its
 * look-ups answer STATUS_UPSTREAM_ERROR (the hash's form is checked first, the caller's error).
 */
export interface ChainStatusClient {
  readonly family: ChainFamily;
  readonly chain: ChainDescriptor;
  /** Throws INVALID_TX_HASH when `txHash` is not a transaction id of this family. */
  assertTxHash(txHash: string): void;
  /** Pending, confirmed (with the block time) or failed; TRANSACTION_NOT_FOUND, STATUS_UPSTREAM_ERROR. */
  transactionStatus(txHash: string): Promise<TransactionStatusResult>;
}

/** What a node answered to a signed transaction. */
export type BroadcastOutcome =
  | { kind: 'sent' }
  /** The node could not be reached or did not answer: the same bytes may be sent again. */
  | { kind: 'unreachable'; message: string }
  /** This very transaction is in the pool or went through already. */
  | { kind: 'already-known'; message: string }
  /** The node refused it: it will never land as it is. */
  | { kind: 'rejected'; message: string };

/**
 * A chain the services sign for and read from (EVM, Solana), over one bounded client per chain:
 * balances, allowances, broadcast, status. Each call is bounded by the RPC timeout it was built with.
 */
interface SigningChainClientBase extends ChainStatusClient {
  /** `token` null = the native coin; on Solana `token` is the mint (holder's associated token account, 0 without one). */
  readBalance(holder: string, token: string | null): Promise<bigint>;
  /**
   * `token.allowance(owner, spender)`; null on a family without allowances (Solana: an SPL
   * transfer is authorized by its owner's own signature).
   */
  readAllowance(token: string, owner: string, spender: string): Promise<bigint | null>;
  /** Sends a signed transaction as it was recorded (0x-hex on EVM, base64 on Solana). */
  broadcast(rawTx: string, txHash: string): Promise<BroadcastOutcome>;
  /** True when `error` means the node could not be reached (as opposed to answering an error). */
  isUnreachable(error: unknown): boolean;
  /**
   * False once a signed transaction can never land as it is (Solana: its blockhash aged out); an
   * EVM transaction does not age. RPC errors are thrown: the caller cannot tell then.
   */
  isStillLandable(artifact: SignedTransactionArtifact): Promise<boolean>;
}

export interface EvmChainClient extends SigningChainClientBase {
  readonly family: 'evm';
  readonly evmChainId: bigint;
  readonly provider: JsonRpcProvider;
}

export interface SolanaChainClient extends SigningChainClientBase {
  readonly family: 'solana';
  readonly connection: Connection;
}

export type SigningChainClient = EvmChainClient | SolanaChainClient;

/** A chain's client, or why this deployment has none (unknown chain, no RPC URL configured...). */
export type ChainClientLookup<T> = { ok: true; client: T } | { ok: false; reason: string };
