import type { SigningPayload, SigningStepSpecFields, TransactionStatusResult } from '@swapgw/contracts';
import type { ChainDescriptor, ChainFamily } from '../chain-descriptor';
import type { SponsoredFeeRates } from '../sponsored-gas';
import type { EvmPayloadPolicy } from './evm/evm-payload';
import type { SignedTransactionArtifact } from './signed-artifact-codec';

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
 * What a step asks to be signed: each step variant's own field (an EVM `call`, a Solana, Bitcoin or
 * Cosmos spec: SigningStepSpecFields, from the variants themselves), of which the family uses its
 * own; the others are null or absent.
 */
export interface StepPayloadRequest extends SigningStepSpecFields {
  from: string;
  /**
   * Another account that pays the fees (a Solana fee payer of the service; on Cosmos the service's
   * fee granter, `fee.granter`); a family without one refuses it.
   */
  feePayer?: string;
  /**
   * Bitcoin, sponsored: the UTXO of the service's fee wallet that the transaction spends beside the
   * user's, and that pays the whole miner fee (held for the step by signer-surface).
   */
  bitcoinFeeInput?: { txid: string; vout: number; value: bigint; address: string };
}

/** How payloads are built: EVM gas and fee head room, and the longest a payload stays valid. */
export interface PayloadPolicy extends EvmPayloadPolicy {
  ttlMs: number;
}

/** What a payload may cost its fee payer, in the chain's base units (wei, lamports). */
export interface PayloadCost {
  /** The most the transaction's fees can be. */
  maxFee: bigint;
  /** Rent of accounts it creates, paid by the fee payer (0 on EVM). */
  rent: bigint;
  /** The network's fee per unit now (EVM: max fee per gas before head room; Solana: per signature). */
  feePerUnit: bigint;
}

/**
 * A step's payload built from chain state read now, or why nothing could be signed (the call would
 * revert, the simulation fails, a prebuilt transaction is stale). A node that cannot be reached is
 * thrown (isUnreachable tells it).
 */
export type PayloadBuild =
  | {
      kind: 'ready';
      payload: SigningPayload;
      executionHints: Record<string, string>;
      /** When the payload stops being signable (Solana: its blockhash ages out first). */
      expiresAtMs: number;
      cost: PayloadCost;
      /** The wallet the client hints recommend. */
      recommendedWallet: string;
    }
  /** The node says it would fail as built (EVM gas estimate reverts, Solana simulation fails, stale blockhash). */
  | { kind: 'would-revert'; reason: string }
  /** The step itself cannot be built on this family (no call, no spec, another fee payer on EVM...). */
  | { kind: 'invalid'; reason: string };

/**
 * Where a sent transaction stands, read now. `required`: confirmations the family wants (EVM: the
 * caller's number of blocks; Solana: its `confirmed` commitment, counted as one).
 */
export type TransactionProgress =
  /** The node does not know it (never arrived, evicted, or its blockhash may have aged out). */
  | { kind: 'unknown' }
  /** Known to the node, in no block yet. */
  | { kind: 'in-pool' }
  | { kind: 'included'; blockNumber: number; confirmations: number; required: number }
  | {
      kind: 'confirmed';
      blockNumber: number;
      confirmations: number;
      required: number;
      /** The block's time (ms), null when the node does not tell it. */
      blockTimeMs: number | null;
    }
  /** It executed and failed (EVM revert, Solana instruction error): its fee is paid all the same. */
  | { kind: 'failed'; blockNumber: number; confirmations: number; reason: string };

/** What sending a recorded transaction again did. */
export type ResendOutcome =
  | { kind: 'sent' }
  | { kind: 'send-failed'; message: string }
  /** It landed meanwhile: nothing was sent. */
  | { kind: 'landed' }
  /** It can never land as it is (Solana: its blockhash aged out, and it is not on chain). */
  | { kind: 'expired'; reason: string };

/**
 * A chain the services sign for and read from, over one bounded client per chain: balances,
 * allowances, broadcast, status. Each call is bounded by the RPC timeout it was built with. Each
 * family's client extends it in its own folder (EvmChainClient, SolanaChainClient...), and
 * chain-families.ts, which builds them, unites them (SigningChainClient).
 */
export interface SigningChainClientBase extends ChainStatusClient {
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
  /** The payload of a step from fresh chain state (EVM nonce, fees, gas estimate; Solana blockhash, simulation). */
  buildPayload(request: StepPayloadRequest, policy: PayloadPolicy, nowMs: number): Promise<PayloadBuild>;
  /** Where the transaction `txHash` stands; RPC errors are thrown. */
  progress(txHash: string, confirmationsRequired: number): Promise<TransactionProgress>;
  /** Sends a recorded transaction again (the node lost it), unless it can no longer land or landed. */
  resend(rawTx: string, txHash: string): Promise<ResendOutcome>;
  /** The network's fee figures now: EVM gas price; Solana fee per signature and a token account's rent. */
  fees(): Promise<SponsoredFeeRates>;
}

/** A chain's client, or why this deployment has none (unknown chain, no RPC URL configured...). */
export type ChainClientLookup<T> = { ok: true; client: T } | { ok: false; reason: string };
