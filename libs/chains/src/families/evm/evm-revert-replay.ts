import { JsonRpcProvider, TransactionReceipt } from 'ethers';
import { revertReasonOf, shortMessageOf } from './evm-chain-errors';

/**
 * Why a mined transaction reverted: replays it with eth_call on the state before its block (the
 * state it ran against, exact when it was the block's first transaction, as on an automining
 * devnet). Falls back to "out of gas" when it used its whole gas limit, else a generic reason.
 */
export async function replayRevertReason(
  provider: JsonRpcProvider,
  receipt: TransactionReceipt,
): Promise<string> {
  const tx = await provider.getTransaction(receipt.hash);
  if (tx) {
    try {
      await provider.call({
        from: tx.from,
        to: tx.to,
        data: tx.data,
        value: tx.value,
        gasLimit: tx.gasLimit,
        blockTag: Math.max(receipt.blockNumber - 1, 0),
      });
    } catch (error) {
      const reason = revertReasonOf(error);
      if (reason) return reason;
      return shortMessageOf(error);
    }
    if (receipt.gasUsed >= tx.gasLimit) return 'out of gas';
  }
  return 'execution reverted';
}
