import type { SigningCall } from '@swapgw/contracts';
import { Contract, JsonRpcProvider } from 'ethers';
import type { EvmPayloadChainState } from './evm-payload';

const ERC20_READS = [
  'function allowance(address owner, address spender) view returns (uint256)',
  'function balanceOf(address owner) view returns (uint256)',
];

export async function readAllowance(provider: JsonRpcProvider, token: string, owner: string, spender: string): Promise<bigint> {
  const erc20 = new Contract(token, ERC20_READS, provider);
  return (await erc20.allowance(owner, spender)) as bigint;
}

/** ERC-20 balance, or the native balance when `token` is null. */
export async function readBalance(provider: JsonRpcProvider, token: string | null, holder: string): Promise<bigint> {
  if (!token) return provider.getBalance(holder);
  const erc20 = new Contract(token, ERC20_READS, provider);
  return (await erc20.balanceOf(holder)) as bigint;
}

/**
 * What a payload is built from, read now: pending nonce (counts the sender's transactions still in
 * the mempool), the node's EIP-1559 fee suggestion, and the gas estimate of the call from `from`
 * (which throws CALL_EXCEPTION with the revert reason when the call would fail).
 */
export async function readPayloadChainState(
  provider: JsonRpcProvider,
  evmChainId: bigint,
  from: string,
  call: SigningCall,
): Promise<EvmPayloadChainState> {
  const [nonce, feeData, gasEstimate] = await Promise.all([
    provider.getTransactionCount(from, 'pending'),
    provider.getFeeData(),
    provider.estimateGas({ from, to: call.to, data: call.data, value: BigInt(call.value) }),
  ]);
  // Pre-London chains only report gasPrice: use it as both the cap and the tip.
  const maxPriorityFeePerGas = feeData.maxPriorityFeePerGas ?? feeData.gasPrice ?? 0n;
  const maxFeePerGas = feeData.maxFeePerGas ?? feeData.gasPrice ?? maxPriorityFeePerGas;
  return { chainId: evmChainId, nonce, gasEstimate, maxFeePerGas, maxPriorityFeePerGas };
}
