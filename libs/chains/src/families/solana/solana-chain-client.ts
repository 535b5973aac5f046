import { type Connection, VersionedTransaction } from '@solana/web3.js';
import type { TransactionStatusResult } from '@swapgw/contracts';
import type { ChainDescriptor } from '../../chain-descriptor';
import type { DevnetSolanaView } from '../../devnet-manifest';
import type { SponsoredFeeRates } from '../family-traits';
import { SOLANA_SPONSORED_FEES } from './solana-sponsored-gas';
import type {
  BroadcastOutcome,
  PayloadBuild,
  PayloadPolicy,
  ResendOutcome,
  SigningChainClientBase,
  StepPayloadRequest,
  TransactionProgress,
} from '../chain-family';
import type { SignedTransactionArtifact } from '../signed-artifact-codec';
import { readSolanaBalance } from './solana-balance';
import { isSolanaRpcUnreachable } from './solana-rpc-errors';
import { LAMPORTS_PER_SIGNATURE } from './solana-fees';
import { issueSolanaPayload, SolanaStepInvalid } from './solana-step-payload';
import { assertSolanaSignature, solanaTransactionStatus } from './solana-transaction-status';

/** Solana's target slot time, for chains whose manifest does not say (blockhash validity → ms). */
export const DEFAULT_SOLANA_SLOT_MS = 400;

/** Solana answers meaning "this very transaction already went through". */
const SOLANA_ALREADY_PROCESSED = /already been processed|AlreadyProcessed/i;

/** The Solana family's signing client (a SigningChainClient): its Connection besides. */
export interface SolanaChainClient extends SigningChainClientBase {
  readonly family: 'solana';
  readonly connection: Connection;
}

/**
 * A Solana chain over one bounded Connection (boundedSolanaConnection). `devnet`: the local devnet's
 * bridge (bridge deposits are built for it); `slotMs`: the slot time, for a blockhash's lifetime.
 */
export class SolanaChainClientImpl implements SolanaChainClient {
  readonly family = 'solana' as const;

  constructor(
    readonly chain: ChainDescriptor,
    readonly connection: Connection,
    private readonly devnet: DevnetSolanaView | undefined = undefined,
    private readonly slotMs = DEFAULT_SOLANA_SLOT_MS,
  ) {}

  assertTxHash(txHash: string): void {
    assertSolanaSignature(txHash);
  }

  transactionStatus(txHash: string): Promise<TransactionStatusResult> {
    return solanaTransactionStatus(this.connection, this.chain.id, txHash);
  }

  readBalance(holder: string, mint: string | null): Promise<bigint> {
    return readSolanaBalance(this.connection, mint, holder);
  }

  /** Solana has no allowances: an SPL transfer is authorized by its owner's signature. */
  async readAllowance(): Promise<null> {
    return null;
  }

  /** sendRawTransaction with preflight: a transaction the node simulates as failing is refused. */
  async broadcast(rawTx: string): Promise<BroadcastOutcome> {
    try {
      await this.connection.sendRawTransaction(Buffer.from(rawTx, 'base64'), {
        preflightCommitment: 'confirmed',
        maxRetries: 0,
      });
      return { kind: 'sent' };
    } catch (error) {
      const message = (error as Error).message;
      if (isSolanaRpcUnreachable(error)) return { kind: 'unreachable', message };
      if (SOLANA_ALREADY_PROCESSED.test(message)) return { kind: 'already-known', message };
      return { kind: 'rejected', message };
    }
  }

  isUnreachable(error: unknown): boolean {
    return isSolanaRpcUnreachable(error);
  }

  /** Its blockhash is still valid: once it aged out the transaction can never land. */
  async isStillLandable(artifact: SignedTransactionArtifact): Promise<boolean> {
    if (artifact.family !== 'solana') return false;
    return (await this.connection.isBlockhashValid(artifact.tx.recentBlockhash, { commitment: 'confirmed' }))
      .value;
  }

  /**
   * A fresh transaction (new blockhash) for a bridge deposit, the aggregator's bytes for a prebuilt
   * one (issueSolanaPayload), simulated first. `invalid` when it would not execute or cannot be
   * renewed, or the node refused the request; an unreachable node is thrown.
   */
  async buildPayload(
    request: StepPayloadRequest,
    policy: PayloadPolicy,
    nowMs: number,
  ): Promise<PayloadBuild> {
    if (!request.solana) return { kind: 'invalid', reason: 'a Solana step without its solana spec' };
    try {
      const built = await issueSolanaPayload(
        { connection: this.connection, devnet: this.devnet, slotMs: this.slotMs },
        { from: request.from, solana: request.solana, feePayer: request.feePayer },
        { ttlMs: policy.ttlMs },
        nowMs,
      );
      return {
        kind: 'ready',
        payload: built.payload,
        executionHints: built.executionHints,
        expiresAtMs: built.expiresAtMs,
        cost: {
          maxFee: built.cost.maxFeeLamports,
          rent: built.cost.rentLamports,
          feePerUnit: BigInt(LAMPORTS_PER_SIGNATURE),
        },
        recommendedWallet: 'Phantom',
      };
    } catch (error) {
      if (isSolanaRpcUnreachable(error)) throw error;
      if (error instanceof SolanaStepInvalid) return { kind: 'would-revert', reason: error.message };
      return { kind: 'invalid', reason: `Solana RPC: ${(error as Error).message}` };
    }
  }

  /**
   * getSignatureStatuses. Solana counts commitment, not blocks: `processed` is in a block,
   * `confirmed` (or `finalized`) is enough, and counts as one confirmation (`confirmations` is null
   * once rooted).
   */
  async progress(txHash: string): Promise<TransactionProgress> {
    const status = await this.signatureStatus(txHash);
    if (!status) return { kind: 'unknown' };
    const blockNumber = status.slot;
    if (status.err)
      return { kind: 'failed', blockNumber, confirmations: 0, reason: JSON.stringify(status.err) };
    if (status.confirmationStatus !== 'confirmed' && status.confirmationStatus !== 'finalized') {
      return { kind: 'included', blockNumber, confirmations: 0, required: 1 };
    }
    const blockTime = await this.connection.getBlockTime(blockNumber).catch(() => null);
    return {
      kind: 'confirmed',
      blockNumber,
      confirmations: Math.max(1, status.confirmations ?? 1),
      required: 1,
      blockTimeMs: blockTime ? blockTime * 1000 : null,
    };
  }

  /**
   * Sent again (no preflight: it was simulated when accepted) while its blockhash is valid; once
   * the blockhash aged out it can never land: `expired`, unless it landed meanwhile.
   */
  async resend(rawTx: string, txHash: string): Promise<ResendOutcome> {
    const bytes = Buffer.from(rawTx, 'base64');
    const blockhash = VersionedTransaction.deserialize(bytes).message.recentBlockhash;
    const { value: valid } = await this.connection.isBlockhashValid(blockhash, { commitment: 'confirmed' });
    if (!valid) {
      // Looked at once more: it may have landed between the status read and the blockhash check.
      if (await this.signatureStatus(txHash)) return { kind: 'landed' };
      return {
        kind: 'expired',
        reason: `the transaction never landed and its blockhash ${blockhash} expired`,
      };
    }
    try {
      await this.connection.sendRawTransaction(bytes, { skipPreflight: true, maxRetries: 0 });
      return { kind: 'sent' };
    } catch (error) {
      return { kind: 'send-failed', message: (error as Error).message };
    }
  }

  /** The protocol's base fee per signature (no priority fee) and the rent of a token account, read now. */
  async fees(): Promise<SponsoredFeeRates> {
    const rent = await this.connection.getMinimumBalanceForRentExemption(
      SOLANA_SPONSORED_FEES.tokenAccountBytes,
    );
    return { feePerGas: BigInt(LAMPORTS_PER_SIGNATURE), tokenAccountRent: BigInt(rent) };
  }

  private async signatureStatus(txHash: string) {
    const {
      value: [status],
    } = await this.connection.getSignatureStatuses([txHash], { searchTransactionHistory: true });
    return status;
  }
}
