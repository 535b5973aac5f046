import type { Connection } from '@solana/web3.js';
import type { TransactionStatusResult } from '@swapgw/contracts';
import type { ChainDescriptor } from '../../chain-descriptor';
import type { BroadcastOutcome, SolanaChainClient } from '../chain-family';
import type { SignedTransactionArtifact } from '../signed-artifact';
import { readSolanaBalance } from './solana-balance';
import { isSolanaRpcUnreachable } from './solana-rpc-errors';
import { assertSolanaSignature, solanaTransactionStatus } from './solana-transaction-status';

/** Solana answers meaning "this very transaction already went through". */
const SOLANA_ALREADY_PROCESSED = /already been processed|AlreadyProcessed/i;

/** A Solana chain over one bounded Connection (boundedSolanaConnection). */
export class SolanaChainClientImpl implements SolanaChainClient {
  readonly family = 'solana' as const;

  constructor(
    readonly chain: ChainDescriptor,
    readonly connection: Connection,
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
}
