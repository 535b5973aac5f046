import { Connection } from '@solana/web3.js';
import bs58 from 'bs58';
import { CodedError, ErrorCodes } from '@swapgw/contracts';

export interface SolanaTransactionStatus {
  txHash: string;
  chain: string;
  status: 'pending' | 'confirmed' | 'failed';
  confirmedAtMs?: number;
  error?: string;
}

/** A Solana transaction id is the base58 of a 64-byte ed25519 signature. */
export function assertSolanaSignature(txHash: string): void {
  let bytes: Uint8Array | undefined;
  try {
    bytes = bs58.decode(txHash);
  } catch {
    bytes = undefined;
  }
  if (!bytes || bytes.length !== 64) {
    throw new CodedError(
      ErrorCodes.INVALID_TX_HASH,
      'A Solana transaction id is a base58 signature of 64 bytes',
      {
        txHash,
      },
    );
  }
}

/**
 * Status of a Solana transaction through getSignatureStatuses and getTransaction:
 * `processed` counts as pending; `confirmed`/`finalized` as confirmed with the block time;
 * an execution error as failed with that error.
 */
export async function solanaTransactionStatus(
  connection: Connection,
  chain: string,
  txHash: string,
): Promise<SolanaTransactionStatus> {
  assertSolanaSignature(txHash);
  let status;
  try {
    ({
      value: [status],
    } = await connection.getSignatureStatuses([txHash], { searchTransactionHistory: true }));
  } catch (error) {
    throw new CodedError(ErrorCodes.STATUS_UPSTREAM_ERROR, `Solana RPC failed: ${(error as Error).message}`, {
      chain,
    });
  }
  if (!status)
    throw new CodedError(ErrorCodes.TRANSACTION_NOT_FOUND, `Transaction ${txHash} is not known on ${chain}`);
  if (status.err) {
    return { txHash, chain, status: 'failed', error: JSON.stringify(status.err) };
  }
  if (status.confirmationStatus !== 'confirmed' && status.confirmationStatus !== 'finalized') {
    return { txHash, chain, status: 'pending' };
  }
  let blockTime: number | null | undefined;
  try {
    blockTime = (
      await connection.getTransaction(txHash, { maxSupportedTransactionVersion: 0, commitment: 'confirmed' })
    )?.blockTime;
  } catch (error) {
    throw new CodedError(ErrorCodes.STATUS_UPSTREAM_ERROR, `Solana RPC failed: ${(error as Error).message}`, {
      chain,
    });
  }
  return blockTime
    ? { txHash, chain, status: 'confirmed', confirmedAtMs: blockTime * 1000 }
    : { txHash, chain, status: 'confirmed' };
}
