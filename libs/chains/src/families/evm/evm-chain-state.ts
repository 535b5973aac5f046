import type { SigningCall } from '@swapgw/contracts';
import { JsonRpcProvider } from 'ethers';
import type { EvmPayloadChainState } from './evm-payload';
import { recentFeeData } from './recent-fee-data';

/**
 * What a payload is built from, read now: pending nonce (counts the sender's transactions still in
 * the mempool), the node's EIP-1559 fee suggestion (at most a second old at `nowMs`, the caller's
 * Clock time), and the gas estimate of the call from `from` (which throws CALL_EXCEPTION with the
 * revert reason when the call would fail).
 */
export async function readPayloadChainState(
  provider: JsonRpcProvider,
  evmChainId: bigint,
  from: string,
  call: SigningCall,
  nowMs: number,
): Promise<EvmPayloadChainState> {
  const [nonce, feeData, gasEstimate] = await Promise.all([
    provider.getTransactionCount(from, 'pending'),
    recentFeeData(provider, nowMs),
    provider.estimateGas({ from, to: call.to, data: call.data, value: BigInt(call.value) }),
  ]);
  // Pre-London chains only report gasPrice: use it as both the cap and the tip.
  const maxPriorityFeePerGas = feeData.maxPriorityFeePerGas ?? feeData.gasPrice ?? 0n;
  const maxFeePerGas = feeData.maxFeePerGas ?? feeData.gasPrice ?? maxPriorityFeePerGas;
  return { chainId: evmChainId, nonce, gasEstimate, maxFeePerGas, maxPriorityFeePerGas };
}
