import { CodedError, ErrorCodes, EVM_TX_HASH, TransactionStatusResult } from '@swapgw/contracts';
import { JsonRpcProvider } from 'ethers';
import { replayRevertReason } from './evm-revert-replay';
import { isRpcUnreachable, shortMessageOf } from './evm-chain-errors';

export { EVM_TX_HASH };

export function assertEvmTxHash(chain: string, txHash: string): void {
  if (!EVM_TX_HASH.test(txHash)) {
    throw new CodedError(
      ErrorCodes.INVALID_TX_HASH,
      `An EVM transaction hash is 0x followed by 64 hex digits`,
      { chain, txHash },
    );
  }
}

/**
 * Status of an EVM transaction over JSON-RPC: known but not mined → pending; mined → confirmed
 * (confirmedAtMs from the block timestamp) or failed (with the revert reason when readable).
 */
export async function evmTransactionStatus(
  provider: JsonRpcProvider,
  chain: string,
  txHash: string,
): Promise<TransactionStatusResult> {
  assertEvmTxHash(chain, txHash);
  try {
    const tx = await provider.getTransaction(txHash);
    if (!tx)
      throw new CodedError(
        ErrorCodes.TRANSACTION_NOT_FOUND,
        `Chain ${chain} does not know transaction ${txHash}`,
        { chain, txHash },
      );
    const receipt = tx.blockNumber === null ? null : await provider.getTransactionReceipt(txHash);
    if (!receipt) return { txHash, chain, status: 'pending' };
    if (receipt.status === 0) {
      return { txHash, chain, status: 'failed', error: await replayRevertReason(provider, receipt) };
    }
    const block = await provider.getBlock(receipt.blockNumber);
    return {
      txHash,
      chain,
      status: 'confirmed',
      ...(block ? { confirmedAtMs: block.timestamp * 1000 } : {}),
    };
  } catch (error) {
    if (error instanceof CodedError) throw error;
    throw new CodedError(
      ErrorCodes.STATUS_UPSTREAM_ERROR,
      isRpcUnreachable(error)
        ? `The RPC of chain ${chain} is unreachable`
        : `The RPC of chain ${chain} failed`,
      { chain, reason: shortMessageOf(error) },
    );
  }
}
