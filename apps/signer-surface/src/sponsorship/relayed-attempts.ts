import { JsonRpcProvider, TransactionLike, TransactionReceipt } from 'ethers';
import type { RelayAttempt, SponsoredTransactionEntity } from './sponsored-transaction.entity';

/** Gas of a cancel: a zero-value self-transfer. */
export const CANCEL_GAS_LIMIT = 21_000n;

/**
 * The transaction of one attempt of a ledger row, as it was signed: signing it again gives the same
 * hash (RFC 6979 signatures are deterministic), which is how the relayers send a transaction the
 * node lost without ever making a second one at that nonce.
 */
export function attemptTransaction(
  row: Pick<SponsoredTransactionEntity, 'relayer' | 'nonce' | 'to' | 'data' | 'value' | 'gasLimit'>,
  attempt: RelayAttempt,
  evmChainId: bigint,
): TransactionLike {
  const cancel = attempt.cancel === true;
  return {
    type: 2,
    chainId: evmChainId,
    nonce: attempt.nonce ?? row.nonce,
    to: cancel ? row.relayer : row.to,
    data: cancel ? '0x' : row.data,
    value: cancel ? 0n : row.value,
    gasLimit: cancel ? CANCEL_GAS_LIMIT : row.gasLimit,
    maxFeePerGas: BigInt(attempt.maxFeePerGas),
    maxPriorityFeePerGas: BigInt(attempt.maxPriorityFeePerGas),
  };
}

/** The attempt sent last: the one the node should hold. */
export function currentAttempt(row: Pick<SponsoredTransactionEntity, 'attempts'>): RelayAttempt {
  return row.attempts[row.attempts.length - 1];
}

/** The receipt of whichever attempt was mined (newest first: a replacement is the likelier one). */
export async function receiptOfAny(
  provider: JsonRpcProvider,
  attempts: RelayAttempt[],
): Promise<{ receipt: TransactionReceipt; attempt: RelayAttempt } | null> {
  for (const attempt of [...attempts].reverse()) {
    const receipt = await provider.getTransactionReceipt(attempt.hash);
    if (receipt) return { receipt, attempt };
  }
  return null;
}

/** The nonce of an EVM row (only Solana rows have none). */
export function evmNonceOf(row: Pick<SponsoredTransactionEntity, 'id' | 'nonce'>): number {
  if (row.nonce === null) throw new Error(`sponsored transaction ${row.id} has no nonce: not an EVM row`);
  return row.nonce;
}
